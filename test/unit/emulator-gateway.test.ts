/**
 * The emulator's HTTP API front (infra/local/emulator/gateway.ts): API Gateway's route priority
 * and payload 2.0's response rules, including the 502 a failed function becomes.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { compileRoute, createGateway, selectRoute, toHttpAnswer } from '../../infra/local/emulator/gateway';

const routes = ['GET /gw/apis/{apiID}', 'GET /gw/apis/oas', 'GET /gw/apis/oas/{apiID}', 'ANY /files/{proxy+}', 'GET /files/{name}', 'POST /gw/apis'].map((k) => {
  const [method, path] = k.split(' ') as [string, string];
  return compileRoute({ routeKey: k, method, path, functionId: k });
});
const pick = (method: string, path: string) => selectRoute(routes, method, path);

describe('route selection', () => {
  it('prefers literal segments over variables, and variables over greedy ones', () => {
    expect(pick('GET', '/gw/apis/oas')?.r.routeKey).toBe('GET /gw/apis/oas');
    expect(pick('GET', '/gw/apis/pets')).toMatchObject({ r: { routeKey: 'GET /gw/apis/{apiID}' }, params: { apiID: 'pets' } });
    expect(pick('GET', '/files/a')?.r.routeKey).toBe('GET /files/{name}');
    expect(pick('GET', '/files/a/b')).toMatchObject({ r: { routeKey: 'ANY /files/{proxy+}' }, params: { proxy: 'a/b' } });
    expect(pick('DELETE', '/files/a')?.r.routeKey).toBe('ANY /files/{proxy+}');
  });

  it('decodes path parameters and leaves unknown paths and methods to $default', () => {
    expect(pick('GET', '/gw/apis/a%20b')?.params).toEqual({ apiID: 'a b' });
    expect(pick('GET', '/gw/apis/')).toBeUndefined();
    expect(pick('PUT', '/gw/apis')).toBeUndefined();
    expect(pick('GET', '/nope')).toBeUndefined();
  });
});

describe('payload 2.0 responses', () => {
  const ok = (result: unknown) => toHttpAnswer({ ok: true, result, durationMs: 1 });
  it('passes a structured answer through, with cookies and base64 bodies', () => {
    const a = ok({ statusCode: 201, headers: { 'X-A': 'b' }, cookies: ['c=1'], body: Buffer.from('hi').toString('base64'), isBase64Encoded: true });
    expect(a).toEqual({ statusCode: 201, headers: { 'x-a': 'b', 'set-cookie': ['c=1'] }, body: Buffer.from('hi') });
  });

  it('turns a result without statusCode into a 200 JSON body', () => {
    expect(ok({ a: 1 })).toEqual({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"a":1}') });
  });

  it('answers 502 for a failed function or a malformed answer', () => {
    const failed = toHttpAnswer({ ok: false, phase: 'init', error: { errorType: 'Runtime.ImportModuleError', errorMessage: 'x' }, durationMs: 0 });
    expect(failed.statusCode).toBe(502);
    expect(JSON.parse(failed.body.toString())).toEqual({ message: 'Internal Server Error' });
    expect(ok({ statusCode: 'two hundred' }).statusCode).toBe(502);
    expect(ok({ statusCode: 200, headers: { a: { nested: true } } }).statusCode).toBe(502);
  });
});

describe('payload limits', () => {
  it('answers 500 without invoking for an event over the 6 MB Lambda takes, as API Gateway does when Lambda refuses it', async () => {
    let invoked = 0;
    const server = createGateway({
      routes: routes.map((r) => ({ routeKey: r.routeKey, method: r.method, path: r.path, functionId: r.functionId })),
      invoke: async () => {
        invoked++;
        return { ok: true, result: { statusCode: 200, body: 'ok' }, durationMs: 1 };
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const small = await fetch(`${url}/gw/apis`, { method: 'POST', body: 'x'.repeat(1000) });
      expect([small.status, await small.text()]).toEqual([200, 'ok']);
      const big = await fetch(`${url}/gw/apis`, { method: 'POST', body: 'x'.repeat(6 * 1024 * 1024) });
      expect([big.status, await big.json()]).toEqual([500, { message: 'Internal Server Error' }]);
      expect(invoked).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe("CloudFront's origin headers (edge=on)", () => {
  it('sets them on every request, replacing what the client sent under that name', async () => {
    const seen: Array<Record<string, string>> = [];
    const server = createGateway({
      routes: [],
      defaultFunction: 'fallback',
      addHeaders: { 'X-Origin-Verify': 'from-the-edge' },
      invoke: async (_id, event) => {
        seen.push((event as { headers: Record<string, string> }).headers);
        return { ok: true, result: { statusCode: 200, body: 'ok' }, durationMs: 1 };
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await fetch(`${url}/a`);
      await fetch(`${url}/b`, { headers: { 'X-Origin-Verify': 'forged' } });
      expect(seen.map((h) => h['x-origin-verify'])).toEqual(['from-the-edge', 'from-the-edge']);
    } finally {
      server.close();
    }
  });
});
