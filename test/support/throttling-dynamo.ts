/**
 * A DynamoDB endpoint with the per-item write ceiling of the real service, scaled down: an HTTP
 * proxy in front of DynamoDB Local that answers ProvisionedThroughputExceededException (as
 * DynamoDB does when one partition is over its ceiling) to any single-item write (PutItem,
 * UpdateItem, DeleteItem) beyond `perItemPerSecond` on one item within one wall-clock second.
 * Everything else passes through unchanged. The hot-key tests and the bench's hot-key scenario
 * use it to show a key's checks scaling past one item's ceiling.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ThrottlingDynamo {
  url: string;
  /** Writes refused so far, and writes passed through. */
  stats: { throttled: number; writes: number };
  close(): Promise<void>;
}

const SINGLE_ITEM_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);

export async function startThrottlingDynamo(target: string, perItemPerSecond: number): Promise<ThrottlingDynamo> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const stats = { throttled: 0, writes: 0 };
  let second = 0;
  let counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      if (SINGLE_ITEM_WRITES.has(op)) {
        const input = JSON.parse(body.toString('utf8')) as { TableName: string; Key?: Record<string, unknown>; Item?: Record<string, unknown> };
        const key = input.Key ?? { PK: input.Item?.PK, SK: input.Item?.SK };
        const item = `${input.TableName}|${JSON.stringify(key)}`;
        const now = Math.floor(Date.now() / 1000);
        if (now !== second) {
          second = now;
          counts = new Map();
        }
        const n = counts.get(item) ?? 0;
        if (n >= perItemPerSecond) {
          stats.throttled++;
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
          res.end(
            JSON.stringify({
              __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
              message: 'The level of configured provisioned throughput for the table was exceeded.',
            }),
          );
          return;
        }
        counts.set(item, n + 1);
        stats.writes++;
      }
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'content-length': String(body.length) },
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', (e) => {
        res.writeHead(502).end(String(e));
      });
      out.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
