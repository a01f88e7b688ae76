/**
 * Lambda authorizers in the emulator's HTTP API front (infra/local/emulator/authorizer.ts), with
 * stand-in functions: API Gateway's payload 2.0 authorizer event, its answers to a missing
 * identity (401, the authorizer not invoked), a deny (403) and a failed authorizer (500), the
 * context handed to the integration, and result caching only when the TTL asks for it.
 * The built authorizer on the real template: test/emulator/authorizer.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { authorizerRunner } from '../../infra/local/emulator/authorizer';
import { createGateway } from '../../infra/local/emulator/gateway';
import type { Outcome } from '../../infra/local/emulator/runtime';
import type { EmulatedAuthorizer } from '../../infra/local/emulator/template';

const ARN = 'arn:aws:execute-api:eu-west-1:000000000000:local';
const authorizer = (ttlSeconds = 0): EmulatedAuthorizer => ({
  logicalId: 'Auth',
  functionId: 'authFn',
  identitySource: [{ from: 'header', name: 'x-api-key' }],
  ttlSeconds,
});

type Invoked = { id: string; event: any };
let close: (() => void) | undefined;
afterEach(() => close?.());

/** The gateway with one guarded route; `answer` is the authorizer's outcome for each key. */
async function gatewayWith(a: EmulatedAuthorizer, answer: (key: string) => Outcome) {
  const invoked: Invoked[] = [];
  const server = createGateway({
    routes: [{ routeKey: 'ANY /demo/{proxy+}', method: 'ANY', path: '/demo/{proxy+}', functionId: 'echo', authorizer: a }],
    executeApiArn: ARN,
    invoke: async (id, event: any) => {
      invoked.push({ id, event });
      if (id === 'authFn') return answer(event.identitySource[0]);
      return { ok: true, result: { statusCode: 200, body: JSON.stringify(event.requestContext.authorizer ?? null) }, durationMs: 1 };
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => server.close();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, { headers });
    return { status: res.status, body: await res.json() };
  };
  return { invoked, call };
}

const result = (r: unknown): Outcome => ({ ok: true, result: r, durationMs: 1 });

describe('a route behind a Lambda authorizer', () => {
  it("sends the payload 2.0 authorizer event and hands an allow's context to the integration as authorizer.lambda", async () => {
    const gw = await gatewayWith(authorizer(), () => result({ isAuthorized: true, context: { org_id: 'o1', quota_remaining: 4 } }));
    const got = await gw.call('/demo/pets/7?a=1&a=2&b=x', { 'X-Api-Key': 'k1', cookie: 'c=1' });
    expect(got).toEqual({ status: 200, body: { lambda: { org_id: 'o1', quota_remaining: 4 } } });
    const [auth, integration] = gw.invoked;
    expect(auth!.id).toBe('authFn');
    expect(auth!.event).toMatchObject({
      version: '2.0',
      type: 'REQUEST',
      routeArn: `${ARN}/$default/GET/demo/pets/7`,
      identitySource: ['k1'],
      routeKey: 'ANY /demo/{proxy+}',
      rawPath: '/demo/pets/7',
      rawQueryString: 'a=1&a=2&b=x',
      cookies: ['c=1'],
      queryStringParameters: { a: '1,2', b: 'x' },
      pathParameters: { proxy: 'pets/7' },
      requestContext: { http: { method: 'GET', path: '/demo/pets/7' }, routeKey: 'ANY /demo/{proxy+}' },
    });
    expect(auth!.event.headers['x-api-key']).toBe('k1');
    expect(integration!.id).toBe('echo');
  });

  it('answers 401 Unauthorized without invoking the authorizer when the identity source is missing or empty', async () => {
    const gw = await gatewayWith(authorizer(), () => result({ isAuthorized: true }));
    expect(await gw.call('/demo/x')).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    expect(await gw.call('/demo/x', { 'x-api-key': '' })).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    expect(gw.invoked).toEqual([]);
  });

  it('answers 403 Forbidden on a deny, and the integration is not invoked', async () => {
    const gw = await gatewayWith(authorizer(), () => result({ isAuthorized: false, context: { why: 'ignored' } }));
    expect(await gw.call('/demo/x', { 'x-api-key': 'k' })).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(gw.invoked.map((i) => i.id)).toEqual(['authFn']);
  });

  it('answers 500 Internal Server Error when the authorizer fails or answers something other than a simple response', async () => {
    const failures: Outcome[] = [
      { ok: false, phase: 'invoke', error: { errorType: 'Error', errorMessage: 'boom' }, durationMs: 1 },
      result({ isAuthorized: 'yes' }),
      result({ isAuthorized: true, context: 'not an object' }),
      result(null),
    ];
    for (const failure of failures) {
      const gw = await gatewayWith(authorizer(), () => failure);
      expect(await gw.call('/demo/x', { 'x-api-key': 'k' })).toEqual({ status: 500, body: { message: 'Internal Server Error' } });
      expect(gw.invoked.map((i) => i.id)).toEqual(['authFn']);
      close?.();
    }
  });

  it('invokes the authorizer on every request when the TTL is 0 (no caching)', async () => {
    const gw = await gatewayWith(authorizer(0), () => result({ isAuthorized: true }));
    for (let i = 0; i < 3; i++) await gw.call('/demo/x', { 'x-api-key': 'k' });
    expect(gw.invoked.filter((i) => i.id === 'authFn')).toHaveLength(3);
  });
});

describe('result caching (AuthorizerResultTtlInSeconds > 0)', () => {
  it('reuses a decision for the same identity values until the TTL passes, and never caches a failure', async () => {
    let now = 0;
    const calls: string[] = [];
    let fail = true;
    const runner = authorizerRunner({
      executeApiArn: ARN,
      now: () => now,
      invoke: async (_id, event: any) => {
        calls.push(event.identitySource[0]);
        if (fail) return { ok: false, phase: 'invoke', error: { errorType: 'Error', errorMessage: 'x' }, durationMs: 1 };
        return result({ isAuthorized: event.identitySource[0] === 'good' });
      },
    });
    const event = (key: string) => ({ headers: { 'x-api-key': key }, requestContext: { stage: '$default', http: { method: 'GET' } }, rawPath: '/' }) as any;
    const a = authorizer(60);
    expect(await runner.decide(a, event('good'))).toMatchObject({ allow: false, status: 500 });
    fail = false;
    expect(await runner.decide(a, event('good'))).toEqual({ allow: true, context: {} });
    expect(await runner.decide(a, event('bad'))).toMatchObject({ allow: false, status: 403 });
    now = 59_000;
    expect(await runner.decide(a, event('good'))).toEqual({ allow: true, context: {} });
    expect(await runner.decide(a, event('bad'))).toMatchObject({ allow: false, status: 403 });
    expect(calls).toEqual(['good', 'good', 'bad']);
    now = 60_001;
    await runner.decide(a, event('good'));
    expect(calls).toEqual(['good', 'good', 'bad', 'good']);
  });
});
