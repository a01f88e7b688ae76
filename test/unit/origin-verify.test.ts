/**
 * The edge check (shared/http/origin-verify.ts, docs/operating/security.md "Edge protection"): with ORIGIN_VERIFY
 * set, as every function of a stage deployed with `-c edge=on` has it, a request without
 * CloudFront's X-Origin-Verify value is refused 403 in its group's envelope before any credential
 * or storage is touched; with the value it is served as usual. Unset, nothing is required.
 * Storage here is a fake DynamoDB that counts the calls it gets and answers each with no item.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as fallback } from '../../functions/system/fallback';
import { handler as openapi } from '../../functions/system/openapi';
import { handler as usersList } from '../../functions/users/list';
import { resetConfig } from '../../shared/config';
import { resetClient } from '../../shared/store/db/client';

const VALUE = 'edge-secret-value-0123456789abcdef';
let server: Server;
let storageCalls = 0;
const before = { endpoint: process.env.DYNAMODB_ENDPOINT, origin: process.env.ORIGIN_VERIFY };
const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));

beforeAll(async () => {
  server = createServer((req, res) => {
    storageCalls++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  restore('DYNAMODB_ENDPOINT', before.endpoint);
  restore('ORIGIN_VERIFY', before.origin);
  resetConfig();
  resetClient();
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  storageCalls = 0;
});

function setOriginVerify(value: string | undefined) {
  if (value === undefined) delete process.env.ORIGIN_VERIFY;
  else process.env.ORIGIN_VERIFY = value;
  resetConfig();
  resetClient();
}

function event(method: string, path: string, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: { requestId: 'req-1', http: { method, path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}
const context = {} as Context;
const bodyOf = (r: { body?: string }) => JSON.parse(r.body ?? 'null') as Record<string, unknown>;

describe('with ORIGIN_VERIFY set (edge=on)', () => {
  beforeAll(() => setOriginVerify(VALUE));

  it('refuses a dashboard request without the header with 403 in its envelope, before its credential reaches storage', async () => {
    const r = await usersList(event('GET', '/api/users', { authorization: 'Bearer some-access-key' }), context);
    expect(r.statusCode).toBe(403);
    expect(bodyOf(r)).toMatchObject({ Status: 'Error', Meta: null });
    expect(String(bodyOf(r).Message)).toContain('public address');
    expect(r.headers['X-Request-Id']).toBe('req-1');
    expect(storageCalls).toBe(0);
  });

  it('refuses a wrong value the same way', async () => {
    const r = await usersList(event('GET', '/api/users', { authorization: 'Bearer some-access-key', 'x-origin-verify': `${VALUE}x` }), context);
    expect(r.statusCode).toBe(403);
    expect(storageCalls).toBe(0);
  });

  it('lets a request with the value go on to its credential check, which reads storage', async () => {
    const r = await usersList(event('GET', '/api/users', { authorization: 'Bearer some-access-key', 'x-origin-verify': VALUE }), context);
    // The fake table has no such key: the usual 401, after the lookup.
    expect(r.statusCode).toBe(401);
    expect(storageCalls).toBeGreaterThan(0);
  });

  it('guards public routes too: /openapi.json is 403 without the value, 200 with it', async () => {
    expect((await openapi(event('GET', '/openapi.json'), context)).statusCode).toBe(403);
    expect((await openapi(event('GET', '/openapi.json', { 'x-origin-verify': VALUE }), context)).statusCode).toBe(200);
  });

  it("guards the $default route: 403 in the path's envelope without the value, the usual 404 with it", async () => {
    const refused = await fallback(event('GET', '/gw/nothing-here'));
    expect(refused.statusCode).toBe(403);
    expect(bodyOf(refused)).toMatchObject({ status: 'error' });
    expect((await fallback(event('GET', '/gw/nothing-here', { 'x-origin-verify': VALUE }))).statusCode).toBe(404);
  });
});

describe('without ORIGIN_VERIFY (npm start, the default stage)', () => {
  beforeAll(() => setOriginVerify(undefined));

  it('requires no header', async () => {
    expect((await openapi(event('GET', '/openapi.json'), context)).statusCode).toBe(200);
    expect((await fallback(event('GET', '/gw/nothing-here'))).statusCode).toBe(404);
    const r = await usersList(event('GET', '/api/users', { authorization: 'Bearer some-access-key' }), context);
    expect(r.statusCode).toBe(401);
    expect(storageCalls).toBeGreaterThan(0);
  });
});
