/** The pure parts of webhook delivery (contract §11) and the delivery-time call: address guard, timeouts, error classes. */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { handlerLimitProblems, routesFor } from '../../shared/domain/event-handlers';
import { crossedTriggers, deliveryIdOf } from '../../shared/domain/events';
import { nextDelay, parseRetrySchedule } from '../../shared/domain/retry-schedule';
import { signatureHeader, signatureOf, verifyWebhookSignature } from '../../shared/domain/webhook-signature';
import { WEBHOOK_LIMITS } from '../../shared/limits';
import { callWebhook } from '../../shared/net/webhook-call';

describe('TriggerExceeded crossings', () => {
  it('each percentage is crossed by exactly one count of a window', () => {
    const hits = new Map<number, number[]>();
    for (let used = 1; used <= 10; used++) for (const p of crossedTriggers([50, 80, 100], 10, used)) hits.set(p, [...(hits.get(p) ?? []), used]);
    expect(Object.fromEntries(hits)).toEqual({ 50: [5], 80: [8], 100: [10] });
    // A percentage below one unit is crossed by the first; invalid limits never.
    expect(crossedTriggers([1, 0, -5, 150, Number.NaN], 3, 1)).toEqual([1]);
    expect(crossedTriggers(null, 10, 5)).toEqual([]);
  });
});

describe('HOOK_RETRY_SECONDS', () => {
  it('defaults to the documented schedule and names a bad entry', () => {
    expect(parseRetrySchedule(undefined)).toEqual([10, 60, 300, 1800, 7200, 21600]);
    expect(parseRetrySchedule(' 1, 2 ')).toEqual([1, 2]);
    expect(() => parseRetrySchedule('1,x')).toThrow(/"x"/);
    expect(() => parseRetrySchedule('1,,2')).toThrow(/HOOK_RETRY_SECONDS/);
    expect(nextDelay([1, 2], 1)).toBe(1);
    expect(nextDelay([1, 2], 3)).toBeUndefined();
  });
});

describe('signatures and ids', () => {
  const T = 1700000000;
  const at = (seconds: number) => ({ now: seconds * 1000 });

  it('a signature verifies only with its secret, body and time', () => {
    const h = signatureHeader(['s1'], T, '{"a":1}');
    expect(h).toBe(`t=${T},v1=${signatureOf('s1', T, '{"a":1}')}`);
    expect(verifyWebhookSignature('s1', h, '{"a":1}', at(T))).toEqual({ ok: true, timestamp: T });
    expect(verifyWebhookSignature('s1', h, Buffer.from('{"a":1}'), at(T)).ok).toBe(true);
    expect(verifyWebhookSignature('s1', h, '{"a":2}', at(T))).toEqual({ ok: false, reason: 'no_match' });
    expect(verifyWebhookSignature('s2', h, '{"a":1}', at(T))).toEqual({ ok: false, reason: 'no_match' });
    expect(verifyWebhookSignature('s1', h.replace(`t=${T}`, `t=${T + 1}`), '{"a":1}', at(T)).ok).toBe(false);
    for (const bad of [undefined, '', 'v1=abc', `t=${T}`, `t=x,v1=${'0'.repeat(64)}`, `t=${T},v1=zz`]) {
      expect(verifyWebhookSignature('s1', bad, '{"a":1}', at(T)), String(bad)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuses a timestamp further than the tolerance from now, either way (300 s unless told)', () => {
    const h = signatureHeader(['s1'], T, 'b');
    expect(verifyWebhookSignature('s1', h, 'b', at(T + 300)).ok).toBe(true);
    expect(verifyWebhookSignature('s1', h, 'b', at(T - 300)).ok).toBe(true);
    expect(verifyWebhookSignature('s1', h, 'b', at(T + 301))).toEqual({ ok: false, reason: 'outside_tolerance' });
    expect(verifyWebhookSignature('s1', h, 'b', at(T - 301))).toEqual({ ok: false, reason: 'outside_tolerance' });
    expect(verifyWebhookSignature('s1', h, 'b', { now: (T + 3600) * 1000, toleranceSeconds: 3600 }).ok).toBe(true);
    // A replay of yesterday's delivery is refused by the default.
    expect(verifyWebhookSignature('s1', h, 'b', { now: (T + 86400) * 1000 }).ok).toBe(false);
  });

  it('during a rotation the header carries both signatures, and either secret verifies it', () => {
    const h = signatureHeader(['new', 'old'], T, 'b');
    expect(h.match(/v1=[0-9a-f]{64}/g)).toHaveLength(2);
    expect(verifyWebhookSignature('new', h, 'b', at(T)).ok).toBe(true);
    expect(verifyWebhookSignature('old', h, 'b', at(T)).ok).toBe(true);
    expect(verifyWebhookSignature(['other', 'old'], h, 'b', at(T)).ok).toBe(true);
    expect(verifyWebhookSignature('other', h, 'b', at(T)).ok).toBe(false);
  });

  it('a delivery id depends only on its event and hook, and sorts by time', () => {
    expect(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h')).toBe(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h'));
    expect(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h')).not.toBe(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h2'));
    expect(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h') < deliveryIdOf('2026-01-02T00:00:00Z', 'a', 'a')).toBe(true);
  });
});

describe('the delivery-time address guard', () => {
  const req = (url: string) => ({ method: 'POST', url, headers: {}, body: '{}' });
  it('refuses a name that resolves to a private, loopback or metadata address, before any connection', async () => {
    for (const address of ['10.0.0.7', '127.0.0.1', '169.254.169.254', '::1', 'fd00::1']) {
      const r = await callWebhook(req('https://hooks.example/x'), {
        allowPrivate: false,
        resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }],
      });
      expect(r, address).toMatchObject({ refused: true, error: 'refused_target' });
      // The address stays in the service's log; the class the delivery log shows names none.
      expect(r.detail).toContain(address);
      expect(r.status).toBeUndefined();
    }
  });

  it('refuses when any of the answers is private (no choosing the public one)', async () => {
    const r = await callWebhook(req('https://hooks.example/x'), {
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.1.1', family: 4 },
      ],
    });
    expect(r.refused).toBe(true);
  });

  it('refuses a non-http scheme', async () => {
    expect((await callWebhook(req('ftp://hooks.example/x'), { allowPrivate: true })).refused).toBe(true);
  });
});

describe('event handler limits and routing (contract §11)', () => {
  const handler = (hookId: string, extra: Record<string, unknown> = {}) => ({
    handler_name: 'eh_web_hook_handler',
    handler_meta: { webhook_id: hookId, ...extra },
  });
  const classic = (events: Record<string, unknown[]>) => ({ event_handlers: { events } });
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `h${i}`);

  it("a hook named many times for one event is one route, with the first handler's cooldown; disabled handlers route nothing", () => {
    const c = classic({
      QuotaExceeded: [handler('a', { event_timeout: 5 }), handler('a', { event_timeout: 9 }), handler('b', { disabled: true }), handler('c')],
      AuthFailure: [handler('b')],
    });
    expect(routesFor(c, 'QuotaExceeded')).toEqual([{ hookId: 'a', eventTimeout: 5 }, { hookId: 'c' }]);
    expect(routesFor(c, 'AuthFailure')).toEqual([{ hookId: 'b' }]);
    // 3,000 handlers naming one hook (a definition that would fan one event out 3,000 times) are one delivery.
    expect(routesFor(classic({ TokenUpdated: Array.from({ length: 3000 }, () => handler('one')) }), 'TokenUpdated')).toEqual([{ hookId: 'one' }]);
  });

  it('routing reaches at most hooksPerEvent distinct hooks, so a definition stored before the limit fans out no further', () => {
    const routes = routesFor(classic({ AuthFailure: ids(50).map((id) => handler(id)) }), 'AuthFailure');
    expect(routes.map((r) => r.hookId)).toEqual(ids(WEBHOOK_LIMITS.hooksPerEvent));
  });

  it('a definition over the handler count or the distinct hooks of one event is refused, naming each', () => {
    expect(handlerLimitProblems(classic({ QuotaExceeded: ids(20).map((id) => handler(id)), AuthFailure: ids(20).map((id) => handler(id)) }))).toEqual([]);
    expect(handlerLimitProblems(classic({ QuotaExceeded: ids(21).map((id) => handler(id)) }))).toEqual([
      { path: 'event_handlers.events.QuotaExceeded', message: 'one event may reach at most 20 distinct webhooks (21 named)' },
    ]);
    // Disabled handlers count: enabling one later is not checked again.
    expect(handlerLimitProblems(classic({ QuotaExceeded: ids(21).map((id) => handler(id, { disabled: true })) }))).toHaveLength(1);
    const many = classic({ QuotaExceeded: Array.from({ length: 101 }, () => handler('same')) });
    expect(handlerLimitProblems(many)).toEqual([{ path: 'event_handlers', message: 'at most 100 webhook event handlers per API definition (101 given)' }]);
  });
});

describe('the delivery-time call: timeouts and the classes the log shows', () => {
  const servers: Server[] = [];
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
    for (const c of cleanups.splice(0)) c();
  });
  const serve = async (handle: (res: import('node:http').ServerResponse) => void): Promise<string> => {
    const s = createServer((req, res) => req.resume().on('end', () => handle(res)));
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
  };
  const post = (url: string) => ({ method: 'POST', url, headers: {}, body: '{}' });

  it('an HTTP answer that is not 2xx is http_error with its status; a redirect too', async () => {
    const failing = await serve((res) => {
      res.statusCode = 503;
      res.end();
    });
    expect(await callWebhook(post(failing), { allowPrivate: true })).toMatchObject({ status: 503, error: 'http_error' });
    const redirect = await serve((res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/' });
      res.end();
    });
    expect(await callWebhook(post(redirect), { allowPrivate: true })).toMatchObject({ status: 302, error: 'http_error' });
  });

  it("a refused port is connection_failed, a name that does not resolve too: nothing of the address or Node's text in the class", async () => {
    const closed = await serve(() => {});
    await new Promise((r) => servers[0]!.close(r));
    const refused = await callWebhook(post(closed), { allowPrivate: true });
    expect(refused).toMatchObject({ error: 'connection_failed' });
    expect(refused.detail).toMatch(/ECONNREFUSED/);
    const unresolved = await callWebhook(post('https://nowhere.example/x'), {
      allowPrivate: false,
      resolve: async () => {
        throw new Error('getaddrinfo ENOTFOUND nowhere.example');
      },
    });
    expect(unresolved).toMatchObject({ error: 'connection_failed' });
    expect(unresolved.detail).toMatch(/ENOTFOUND/);
  });

  it('a receiver that takes the request and never answers is timeout after the whole-call limit', async () => {
    const url = await serve(() => {});
    const r = await callWebhook(post(url), { allowPrivate: true, timeoutMs: 300 });
    expect(r).toMatchObject({ error: 'timeout' });
    expect(r.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('a target that never completes the TCP handshake is connection_failed after the connect timeout, well before the whole-call limit', async () => {
    // A listener whose process is stopped: the kernel completes handshakes only until its backlog
    // is full, then drops them, as a firewall that drops packets does.
    const child = spawn(
      process.execPath,
      ['-e', "const s=require('net').createServer();s.listen({port:0,host:'127.0.0.1',backlog:1},()=>console.log(s.address().port))"],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => child.kill('SIGKILL'));
    const port = await new Promise<number>((r) => child.stdout!.once('data', (d) => r(Number(String(d)))));
    process.kill(child.pid!, 'SIGSTOP');
    const fillers: Socket[] = [];
    cleanups.push(() => fillers.forEach((f) => f.destroy()));
    for (let i = 0; i < 3; i++) fillers.push(connect(port, '127.0.0.1').on('error', () => {}));
    // The kernel takes backlog + 1 handshakes (Linux), the first two fillers': once they connected,
    // the queue is full and the third filler's handshake, as the call's, goes unanswered.
    await Promise.all(fillers.slice(0, 2).map((f) => new Promise((r) => f.once('connect', r))));
    const r = await callWebhook(post(`http://127.0.0.1:${port}/hook`), { allowPrivate: true, timeoutMs: 5_000, connectTimeoutMs: 300 });
    expect(r).toMatchObject({ error: 'connection_failed' });
    expect(r.detail).toMatch(/not connected within 300 ms/);
    expect(r.durationMs).toBeLessThan(2_000);
  });
});
