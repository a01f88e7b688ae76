/**
 * Tenants cannot hurt each other through webhooks (issue 24; contract §11, docs/reference/limits.md), end
 * to end on the local stage with its change feed and real receivers on 127.0.0.1: one
 * organisation's slow receivers do not delay another's deliveries, fan-out is deduplicated and
 * bounded at write time, and the delivery log names failures by class only.
 */
import { expect, it, vi } from 'vitest';
import { dueDeliveries } from '../../shared/store/hook-deliveries';
import { makeKey, oasDoc, rightsFor, STREAMS_TYPE, uid } from '../support/fixtures';
import { feedSuite as suite, useWebhookStage } from '../support/webhook-stage';

// Retries of A's timed-out attempts stay out of the way of what is measured.
const ws = useWebhookStage({ retrySeconds: '3600' });
const hooks = ws.hooks;
const receiver = ws.receiver;
const tarpit = ws.tarpit;

const webhook = (hookId: string) => ({ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: hookId, event_timeout: 0 } });

/** A classic API of the organisation whose handlers send each of `events` to each of `hookIds`. */
function classicApi(orgId: string, apiId: string, events: string[], hookIds: string[]) {
  return ws.s.gw('POST', '/gw/apis', {
    api_id: apiId,
    name: apiId,
    org_id: orgId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
    event_handlers: { events: Object.fromEntries(events.map((e) => [e, hookIds.map(webhook)])) },
  });
}

suite('fair delivery', () => {
  it("while organisation A has 300 deliveries hanging on a receiver that never answers, organisation B's Ping arrives", async () => {
    const pit = await tarpit();
    const a = await ws.s.tenant();
    const b = await ws.s.tenant();
    // A: 100 hooks on the tarpit; five APIs route the three key events to 20 of them each.
    const aHooks = await hooks(a.key, 100, pit.url);
    const apiIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = uid('noisy');
      const r = await classicApi(a.orgId, id, ['TokenCreated', 'TokenUpdated', 'TokenDeleted'], aHooks.slice(i * 20, i * 20 + 20));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      apiIds.push(id);
    }
    const { key } = await makeKey(ws.s, { org_id: a.orgId, access_rights: rightsFor(...apiIds) });
    const updated = await ws.s.dash(a.key, 'PUT', `/api/apis/${apiIds[0]}/keys/${key}`, {
      org_id: a.orgId,
      access_rights: rightsFor(...apiIds),
      alias: 'changed',
    });
    expect(updated.status).toBe(200);
    expect((await ws.s.gw('DELETE', `/gw/keys/${key}`)).status).toBe(200);
    // Three key events × 100 hooks: 300 deliveries of A, every one pending on the tarpit (the feed
    // cannot catch up while they hang, so the table is asked until it shows them).
    await vi.waitFor(
      async () => {
        const pending = (await dueDeliveries(Date.now() + 24 * 3600_000, 1000)).filter((d) => d.org_id === a.orgId);
        expect(pending, `A has ${pending.length} pending deliveries`).toHaveLength(300);
      },
      { timeout: 120_000, interval: 200 },
    );
    await pit.waitFor(10);

    const rx = await receiver();
    const [bHook] = await hooks(b.key, 1, rx.url);
    const ping = await ws.s.dash(b.key, 'POST', `/api/hooks/${bHook}/test`);
    expect(ping.status).toBe(200);
    // A's attempts never end (the tarpit never answers), so B's arriving at all shows it did not
    // wait behind them; the deadline is the failure's, not a speed asserted (that is the bench's).
    const [call] = await rx.waitFor(1, 30_000);
    expect(call!.headers['x-gw-event']).toBe('Ping');
    // A's slow receiver never held more than A's budget of attempts in flight (10), whatever its backlog.
    expect(pit.maxOpen()).toBe(10);
    // A's backlog ends with this test: without the tarpit each attempt fails at once (its retry is an
    // hour away), so the change feed can catch up, as the next tests wait for it to.
    await pit.close();
    await ws.s.caughtUp();
  }, 240_000);
});

suite('fan-out', () => {
  it("a key event reaches a hook once, however many of the key's APIs name it: the first API by id, all of them in data.apis", async () => {
    const t = await ws.s.tenant();
    const rx = await receiver();
    const [hook] = await hooks(t.key, 1, rx.url);
    const [first, second] = [uid('dedupe-a'), uid('dedupe-b')];
    for (const id of [first, second]) expect((await classicApi(t.orgId, id, ['TokenCreated'], [hook!, hook!])).status).toBe(200);
    const { hash } = await makeKey(ws.s, { org_id: t.orgId, access_rights: rightsFor(second!, first!) });
    const [call] = await rx.waitFor(1);
    await ws.s.caughtUp();
    expect(rx.calls).toHaveLength(1);
    const payload = JSON.parse(call!.body);
    expect(payload).toMatchObject({ event: 'TokenCreated', api_id: first, key_hash: hash });
    expect([...payload.data.apis].sort()).toEqual([first, second].sort());
  }, 240_000);

  it('an organisation holds at most 100 webhooks: of 15 concurrent creates at 95, exactly 5 succeed and 10 answer 409; a delete makes room', async () => {
    const t = await ws.s.tenant();
    await hooks(t.key, 95, 'https://hooks.example/x');
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        ws.s.dash(t.key, 'POST', '/api/hooks', { name: `late${i}`, method: 'POST', target_path: 'https://hooks.example/x' }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = answers.filter((r) => r.status === 409);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.body).toMatchObject({ Status: 'Error', Message: expect.stringContaining('100 webhooks') });
    const list = await ws.s.dash(t.key, 'GET', '/api/hooks?p=-1');
    expect(list.body.hooks).toHaveLength(100);
    expect(list.body.pages).toBe(1);
    expect((await ws.s.dash(t.key, 'DELETE', `/api/hooks/${list.body.hooks[0].id}`)).status).toBe(200);
    expect((await ws.s.dash(t.key, 'POST', '/api/hooks', { name: 'room', method: 'POST', target_path: 'https://hooks.example/x' })).status).toBe(200);
  }, 240_000);

  it(
    'every write of a definition refuses more than 20 distinct webhooks for one event or more than 100 ' +
      'webhook handlers (400 naming the limit), and stores nothing',
    async () => {
      const t = await ws.s.tenant();
      const ids = await hooks(t.key, 21, 'https://hooks.example/x');
      const over = 'one event may reach at most 20 distinct webhooks (21 named)';

      const classicId = uid('limit-classic');
      const classic = await classicApi(t.orgId, classicId, ['AuthFailure'], ids);
      expect(classic.status).toBe(400);
      expect(JSON.stringify(classic.body)).toContain(over);
      expect((await ws.s.gw('GET', `/gw/apis/${classicId}`)).status).toBe(404);
      const many = await classicApi(
        t.orgId,
        classicId,
        ['AuthFailure'],
        Array.from({ length: 101 }, () => ids[0]!),
      );
      expect(many.status).toBe(400);
      expect(JSON.stringify(many.body)).toContain('at most 100 webhook event handlers per API definition (101 given)');

      const oasId = uid('limit-oas');
      const handlers = (hookIds: string[]) => ({
        server: {
          listenPath: { value: `/${oasId}/`, strip: true },
          eventHandlers: hookIds.map((id, i) => ({ enabled: true, id, name: `h${i}`, trigger: 'AuthFailure', type: 'webhook' })),
        },
      });
      const created = await ws.s.gw('POST', '/gw/apis/oas', oasDoc(oasId, t.orgId, { gateway: handlers(ids) }));
      expect(created.status).toBe(400);
      expect(JSON.stringify(created.body)).toContain(over);
      expect((await ws.s.gw('POST', '/gw/apis/oas', oasDoc(oasId, t.orgId, { gateway: handlers(ids.slice(0, 20)) }))).status).toBe(200);
      const replaced = await ws.s.gw('PUT', `/gw/apis/oas/${oasId}`, oasDoc(oasId, t.orgId, { gateway: handlers(ids) }));
      expect(replaced.status).toBe(400);

      const stored = (await ws.s.gw('GET', `/gw/apis/oas/${oasId}`)).body;
      expect(stored['x-gw-api-gateway'].server.eventHandlers).toHaveLength(20);
      const streamsBody = { ...stored, 'x-gw-api-gateway': { ...stored['x-gw-api-gateway'], server: handlers(ids).server }, 'x-gw-streaming': { streams: {} } };
      const patched = await ws.s.dash(t.key, 'PATCH', `/api/apis/streams/${oasId}`, streamsBody, { 'content-type': STREAMS_TYPE });
      expect(patched.status).toBe(400);
      expect((await ws.s.gw('GET', `/gw/apis/oas/${oasId}`)).body['x-gw-api-gateway'].server.eventHandlers).toHaveLength(20);

      const templateId = uid('limit-tpl');
      const template = {
        id: templateId,
        name: 'fan-out template',
        kind: 'oas-template',
        data: { 'x-gw-api-gateway': { server: { eventHandlers: handlers(ids).server.eventHandlers } } },
      };
      expect((await ws.s.dash(t.key, 'POST', '/api/assets', template)).status).toBe(200);
      const plain = { openapi: '3.0.3', info: { title: uid('limit import'), version: '1' }, servers: [{ url: 'https://upstream.example' }], paths: {} };
      const imported = await ws.s.dash(t.key, 'POST', `/api/apis/oas/import?templateID=${templateId}`, plain, { 'content-type': 'application/json' });
      expect(imported.status, JSON.stringify(imported.body)).toBe(400);
      expect(JSON.stringify(imported.body)).toContain(over);
    },
  );
});

suite('the delivery log is no probe', () => {
  it(
    'a closed port shows as connection_failed: no address, DNS answer or Node error text (refused ' + 'targets and HTTP errors: webhook-events.test.ts)',
    async () => {
      const t = await ws.s.tenant();
      const closed = await receiver();
      const target = closed.url;
      await closed.close();
      const [hook] = await hooks(t.key, 1, target);
      expect((await ws.s.dash(t.key, 'POST', `/api/hooks/${hook}/test`)).status).toBe(200);
      // The attempt has been made once the feed caught up; the retry is an hour away.
      await ws.s.caughtUp();
      const entry = (await ws.s.dash(t.key, 'GET', `/api/hooks/${hook}/deliveries`)).body.deliveries[0];
      expect(entry).toMatchObject({ status: 'pending', attempts: 1, error: 'connection_failed' });
      expect(JSON.stringify(entry)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|refused|resolve/i);
    },
  );
});
