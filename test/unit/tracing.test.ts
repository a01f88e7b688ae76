/**
 * X-Ray tracing (shared/observability/tracer.ts): an invocation X-Ray does not sample never loads
 * the Tracer (node:http stays unpatched, nothing is sent); the first sampled one loads it before
 * the handler runs, and then a client made before that and an outbound HTTP request are
 * subsegments of the invocation's trace, sent to the X-Ray daemon (here a UDP socket of the test).
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createSocket, type Socket } from 'node:dgram';
import http, { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { invoke } from '../../shared/observability/invocation';
import { traced } from '../../shared/observability/tracer';
import { putBackEnvironment } from '../support/environment';

const ROOT = '1-67a0c0de-0123456789abcdef01234567';
/** The trace of the invocation X-Ray does not sample: nothing may ever be sent under it. */
const UNSAMPLED = '1-67a0c0de-fedcba9876543210fedcba98';
const PARENT = '53995c3f42cd8ad8';
const LAMBDA_ENV = { LAMBDA_TASK_ROOT: '/var/task', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x', AWS_LAMBDA_FUNCTION_NAME: 'traced' };

let daemon: Socket;
let server: Server;
let endpoint: string;
const sent: Record<string, unknown>[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  daemon = createSocket('udp4');
  // Each datagram: a JSON header line, then one (sub)segment document.
  daemon.on('message', (m) => sent.push(JSON.parse(m.toString().split('\n')[1]!) as Record<string, unknown>));
  await new Promise<void>((r) => daemon.bind(0, '127.0.0.1', r));
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"TableNames":[]}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, LAMBDA_ENV, { AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}` });
  delete process.env.POWERTOOLS_TRACE_ENABLED;
});

afterAll(() => {
  putBackEnvironment(saved);
  daemon.close();
  server.close();
});

const client = () => traced(new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 }));
const get = (url: string) => new Promise<void>((resolve, reject) => http.get(url, (res) => res.resume().on('end', resolve)).on('error', reject));
/** Datagrams arrive after the call that sent them: wait until `check` holds of what arrived (or fail after 5 s). */
const arrived = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 10 });

describe('X-Ray tracing', () => {
  // Made before any invocation, as the functions make theirs: instrumented when tracing starts.
  let early: DynamoDBClient;
  const unpatched = http.request;

  it('an invocation X-Ray does not sample loads no Tracer (what it sent: checked once a sampled one has been heard)', async () => {
    early = client();
    process.env._X_AMZN_TRACE_ID = `Root=${UNSAMPLED};Parent=${PARENT};Sampled=0`;
    await invoke({ route: 'GET /a' }, undefined, async () => {
      await early.send(new ListTablesCommand({}));
      await get(endpoint);
    });
    expect(http.request).toBe(unpatched);
  });

  it('a sampled invocation traces the calls of a client made before it and outbound HTTP', async () => {
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
    await invoke({ route: 'GET /a' }, undefined, async () => {
      expect(http.request).not.toBe(unpatched);
      await early.send(new ListTablesCommand({}));
      await get(`${endpoint}/hook`);
    });
    await arrived(() => {
      const ours = sent.filter((s) => s.trace_id === ROOT && s.parent_id === PARENT && s.type === 'subsegment');
      expect(ours).toContainEqual(expect.objectContaining({ name: 'DynamoDB', namespace: 'aws', aws: expect.objectContaining({ operation: 'ListTables' }) }));
      expect(ours).toContainEqual(
        expect.objectContaining({
          name: '127.0.0.1',
          namespace: 'remote',
          http: expect.objectContaining({ request: expect.objectContaining({ method: 'GET' }) }),
        }),
      );
    });
    // Sent over the same socket after anything the unsampled invocation could have sent: it sent nothing.
    expect(sent.filter((s) => s.trace_id === UNSAMPLED)).toEqual([]);
  });

  it('a client made after tracing started is traced at once', async () => {
    sent.length = 0;
    await client().send(new ListTablesCommand({}));
    await arrived(() => expect(sent).toContainEqual(expect.objectContaining({ name: 'DynamoDB', trace_id: ROOT, parent_id: PARENT })));
  });
});
