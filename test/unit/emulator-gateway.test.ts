/**
 * The emulator's HTTP API front (infra/local/emulator/gateway.ts): routes picked by the shared
 * matcher (its precedence: test/unit/route-match.test.ts), and payload 2.0's response rules,
 * including the 502 a failed function becomes.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createGateway, toHttpAnswer } from '../../infra/local/emulator/gateway';

const routes = ['GET /gw/apis/{apiID}', 'GET /gw/apis/oas', 'POST /gw/apis'].map((k) => {
  const [method, path] = k.split(' ') as [string, string];
  return { routeKey: k, method, path, functionId: k };
});

describe('route selection', () => {
  it("sends each request to the route API Gateway's precedence picks (shared/http/route-match.ts), else to $default", async () => {
    const invoked: Array<[string, unknown]> = [];
    const server = createGateway({
      routes,
      defaultFunction: '$default',
      invoke: async (id, event) => {
        invoked.push([id, (event as { pathParameters?: unknown }).pathParameters ?? {}]);
        return { ok: true, result: { statusCode: 200, body: 'ok' }, durationMs: 1 };
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/gw/apis/oas', '/gw/apis/a%20b', '/gw/apis/']) await fetch(`${url}${path}`);
      expect(invoked).toEqual([
        ['GET /gw/apis/oas', {}],
        ['GET /gw/apis/{apiID}', { apiID: 'a b' }],
        ['$default', {}],
      ]);
    } finally {
      server.close();
    }
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
      routes,
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
