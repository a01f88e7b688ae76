/**
 * The floor of the benchmarks: a bare node:http server (no framework, no wrapper, no auth, no
 * validation) that makes the same single DynamoDB call per request as the route it stands
 * beside, with the service's own client settings (shared/store/db/client.ts). `npm run bench`
 * starts it as a process of its own, like the stage, and reports the routes as ratios to it:
 * whatever a route costs beyond the floor is the service's own code and its local server.
 *   GET  /query?pk=&a=&b=   one consistent Query of PK = pk AND SK BETWEEN a AND b (the key read)
 *   POST /add  {pk,sk,max} one conditional UpdateItem: ADD used 1 IF renews > now AND used < max
 *                          (the check's steady-state write); 200, or 429 when the condition fails
 *   POST /tx   {pk, item}  one TransactWriteItems: a conditional Put of the item, an ADD on a
 *                          counter and a conditional ADD on a window's unit (what POST /api/hooks
 *                          writes: the hook, its organisation's list counter and its write unit),
 *                          answered once committed, with the same commit wait as
 *                          the local stage (infra/local/commit-wait.ts)
 *   ANY  /gw/ext-authz/... the same conditional UpdateItem as /add, for nginx auth_request: the
 *                          item and quota from the forwarded Authorization (`<pk> <max>`: the only
 *                          client header the example passes); 200 (no body, the path in X-Gw-Path
 *                          as the example's proxy_pass needs) or 429 with Retry-After (the gateway
 *                          scenario's floor auth server)
 * It prints its port on stdout.
 */
import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { awaitLocalCommits } from '../infra/local/commit-wait';
import { ddb, tableName } from '../shared/store/db/client';
import { isConditionFailure } from '../shared/store/db/items';
import { TTL_ATTRIBUTE } from '../shared/store/db/table';

const body = async (req: IncomingMessage): Promise<string> => {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
};

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://floor');
    if (req.method === 'GET' && url.pathname === '/query') {
      const out = await ddb().send(
        new QueryCommand({
          TableName: tableName(),
          ConsistentRead: true,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
          ExpressionAttributeValues: { ':pk': url.searchParams.get('pk'), ':a': url.searchParams.get('a'), ':b': url.searchParams.get('b') },
        }),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out.Items ?? []));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/add') {
      const { pk, sk, max } = JSON.parse(await body(req)) as { pk: string; sk: string; max: number };
      try {
        const out = await ddb().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { PK: pk, SK: sk },
            UpdateExpression: 'ADD used :one',
            ConditionExpression: 'renews > :now AND used < :max',
            ExpressionAttributeValues: { ':one': 1, ':now': Math.floor(Date.now() / 1000), ':max': max },
            // What the check's spend asks back (shared/store/live-quota/single-item.ts).
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ used: out.Attributes?.used }));
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
        res.writeHead(429, { 'content-type': 'application/json' }).end('{"allowed":false}');
      }
      return;
    }
    if (url.pathname.startsWith('/gw/ext-authz/')) {
      const [pk, max] = String(req.headers.authorization ?? '').split(' ');
      try {
        await ddb().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { PK: String(pk), SK: 'QUOTA' },
            UpdateExpression: 'ADD used :one',
            ConditionExpression: 'renews > :now AND used < :max',
            ExpressionAttributeValues: { ':one': 1, ':now': Math.floor(Date.now() / 1000), ':max': Number(max) },
          }),
        );
        // Content-Length 0: nginx keeps its connection to an auth answer whose end it knows.
        res.writeHead(200, { 'content-length': '0', 'x-gw-path': String(req.headers['x-original-uri'] ?? '/').split('?')[0] }).end();
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
        res.writeHead(429, { 'retry-after': '3600', 'content-length': '0' }).end();
      }
      return;
    }
    if (req.method === 'POST' && url.pathname === '/tx') {
      const { pk, item } = JSON.parse(await body(req)) as { pk: string; item: Record<string, unknown> };
      await ddb().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: { ...item, PK: pk, SK: 'BENCH' }, ConditionExpression: 'attribute_not_exists(PK)' } },
            {
              Update: {
                TableName: tableName(),
                Key: { PK: 'BENCH#FLOORCOUNT', SK: 'COUNT' },
                UpdateExpression: 'ADD n :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
            {
              // The organisation's write unit, which the route's transaction carries too (shared/store/org-limits.ts).
              Update: {
                TableName: tableName(),
                Key: { PK: 'BENCH#FLOORLIMIT', SK: `W#${Math.floor(Date.now() / 60_000)}` },
                UpdateExpression: 'ADD #used :one SET #entity = :entity, #exp = :exp',
                ConditionExpression: 'attribute_not_exists(#used) OR #used < :max',
                ExpressionAttributeNames: { '#used': 'used', '#entity': 'entity', '#exp': TTL_ATTRIBUTE },
                ExpressionAttributeValues: { ':one': 1, ':max': 1_000_000_000, ':entity': 'bench', ':exp': Math.floor(Date.now() / 1000) + 3600 },
              },
            },
          ],
        }),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    res.writeHead(404).end();
  } catch (e) {
    res.writeHead(500).end(String(e));
  }
});
// As the local stage does (infra/local/main.ts): a transaction is answered once committed.
awaitLocalCommits(ddb());
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
