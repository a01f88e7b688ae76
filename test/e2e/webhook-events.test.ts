/**
 * Webhooks that fire (contract §11), end to end on the local stage with its change feed: the check
 * and key writes record, the table's stream carries, the delivery handler calls a real receiver
 * on 127.0.0.1 (ALLOW_PRIVATE_TARGETS=1, as the local stage allows), signed and logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../shared/domain/webhook-signature';
import { resetConfig } from '../../shared/config';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { makeKey, oasDoc, rightsFor, uid } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/receiver';

let s: Stage;
let t: { orgId: string; key: string };
const receivers: Receiver[] = [];

// The emulated stack feeds no stream to its delivery functions, and this file sets the delivery's
// settings in its own environment: it runs on the in-process stage only (docs/developing/tests.md).
const suite = onEmulator ? describe.skip : describe;

beforeAll(async () => {
  if (onEmulator) return;
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  process.env.HOOK_RETRY_SECONDS = '1,1';
  s = await startStage({ changeFeed: true });
  t = await s.tenant();
});
afterAll(async () => {
  await s?.close();
  await Promise.all(receivers.map((r) => r.close()));
  delete process.env.ALLOW_PRIVATE_TARGETS;
  delete process.env.HOOK_RETRY_SECONDS;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function receiver(answer?: (n: number) => number): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function makeHook(target: string): Promise<{ id: string; secret: string }> {
  const r = await s.dash(t.key, 'POST', '/api/hooks', { name: uid('hook'), method: 'POST', target_path: target, header_map: { 'x-team': 'ops' } });
  expect(r.status).toBe(200);
  return { id: r.body.Meta, secret: r.body.signing_secret };
}

type Route = { hookId: string; event_timeout?: number };

/** A classic API of the tenant whose event handlers send each named event to a hook. */
async function routedApi(routes: Record<string, Route>): Promise<string> {
  const apiId = uid('evapi');
  const events = Object.fromEntries(
    Object.entries(routes).map(([event, r]) => [
      event,
      [
        {
          handler_name: 'eh_web_hook_handler',
          handler_meta: { webhook_id: r.hookId, ...(r.event_timeout !== undefined ? { event_timeout: r.event_timeout } : {}) },
        },
      ],
    ]),
  );
  const r = await s.gw('POST', '/gw/apis', {
    api_id: apiId,
    name: apiId,
    org_id: t.orgId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
    event_handlers: { events },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return apiId;
}

const check = (key: string, apiId: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: '/x', method: 'GET' });
const log = (hookId: string) => s.dash(t.key, 'GET', `/api/hooks/${hookId}/deliveries`);

async function waitForLog(hookId: string, done: (d: any[]) => boolean, ms = 20_000): Promise<any[]> {
  const until = Date.now() + ms;
  for (;;) {
    const r = await log(hookId);
    expect(r.status).toBe(200);
    if (done(r.body.deliveries)) return r.body.deliveries;
    if (Date.now() > until) throw new Error(`delivery log never matched: ${JSON.stringify(r.body.deliveries)}`);
    await sleep(200);
  }
}

suite('events from the check', () => {
  it('the third check of a quota-2 key is refused and the receiver gets exactly one signed QuotaExceeded, within 5 s', async () => {
    const rx = await receiver();
    const hook = await makeHook(rx.url);
    const apiId = await routedApi({ QuotaExceeded: { hookId: hook.id } });
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 2, quota_renewal_rate: 3600 });
    expect((await check(key, apiId)).status).toBe(200);
    expect((await check(key, apiId)).status).toBe(200);
    const refused = await check(key, apiId);
    expect(refused.status).toBe(429);
    // Receivers hear of an event promptly: the delivery arrives within 5 s of the refusal that caused it.
    const [call] = await rx.waitFor(1, 5_000);
    await sleep(1_500);
    expect(rx.calls).toHaveLength(1);

    const payload = JSON.parse(call!.body);
    expect(payload).toMatchObject({
      event: 'QuotaExceeded',
      org_id: t.orgId,
      api_id: apiId,
      key_hash: hash,
      message: expect.any(String),
      data: { reason: 'QuotaExceeded', quota_max: 2, quota_remaining: 0 },
    });
    expect(payload.id).toEqual(expect.any(String));
    expect(Date.parse(payload.occurred_at)).not.toBeNaN();
    expect(call!.body).not.toContain(key);
    expect(call!.headers).toMatchObject({ 'content-type': 'application/json', 'x-gw-event': 'QuotaExceeded', 'x-team': 'ops' });
    expect(call!.headers['x-gw-delivery']).toEqual(expect.any(String));

    const sig = call!.headers['x-gw-signature']!;
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(hook.secret, sig, call!.body).ok).toBe(true);
    expect(verifyWebhookSignature(`${hook.secret}x`, sig, call!.body).ok).toBe(false);
    expect(verifyWebhookSignature(hook.secret, sig, call!.body.replace('QuotaExceeded', 'QuotaExceedeD')).ok).toBe(false);

    const entries = await waitForLog(hook.id, (d) => d[0]?.status === 'delivered');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: call!.headers['x-gw-delivery'],
      event_id: payload.id,
      event: 'QuotaExceeded',
      status: 'delivered',
      attempts: 1,
      response_code: 200,
    });
    expect(entries[0]).not.toHaveProperty('payload');
  });

  it('TriggerExceeded fires once at each crossed percentage of monitor.trigger_limits', async () => {
    const rx = await receiver();
    const hook = await makeHook(rx.url);
    const apiId = await routedApi({ TriggerExceeded: { hookId: hook.id, event_timeout: 0 } });
    const { key } = await makeKey(s, {
      org_id: t.orgId,
      access_rights: rightsFor(apiId),
      quota_max: 10,
      quota_renewal_rate: 3600,
      monitor: { trigger_limits: [80, 50] },
    });
    for (let i = 0; i < 10; i++) expect((await check(key, apiId)).status).toBe(200);
    await rx.waitFor(2);
    await sleep(1_500);
    const got = rx.calls.map((c) => JSON.parse(c.body)).sort((a, b) => a.data.trigger_limit - b.data.trigger_limit);
    expect(got.map((p) => [p.event, p.data.trigger_limit, p.data.quota_remaining])).toEqual([
      ['TriggerExceeded', 50, 5],
      ['TriggerExceeded', 80, 2],
    ]);
  });

  it('cooldown holds under 50 concurrent over-quota checks: one delivery per event_timeout', async () => {
    const rx = await receiver();
    const hook = await makeHook(rx.url);
    const apiId = await routedApi({ QuotaExceeded: { hookId: hook.id, event_timeout: 3600 } });
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 1, quota_renewal_rate: 3600 });
    expect((await check(key, apiId)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 50 }, () => check(key, apiId)));
    expect(answers.every((a) => a.status === 429)).toBe(true);
    await rx.waitFor(1);
    await sleep(3_000);
    expect(rx.calls).toHaveLength(1);
    expect((await log(hook.id)).body.deliveries).toHaveLength(1);
  });
});

suite('events from the change feed', () => {
  it('TokenCreated and TokenDeleted fire for a key created and deleted on a routed API, never with the clear key', async () => {
    const rx = await receiver();
    const hook = await makeHook(rx.url);
    const apiId = await routedApi({ TokenCreated: { hookId: hook.id }, TokenDeleted: { hookId: hook.id } });
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId) });
    await rx.waitFor(1);
    expect((await s.gw('DELETE', `/gw/keys/${key}`)).status).toBe(200);
    await rx.waitFor(2);
    const events = rx.calls.map((c) => JSON.parse(c.body));
    expect(events.map((e) => [e.event, e.api_id, e.key_hash])).toEqual([
      ['TokenCreated', apiId, hash],
      ['TokenDeleted', apiId, hash],
    ]);
    expect(rx.calls.every((c) => !c.body.includes(key) && verifyWebhookSignature(hook.secret, c.headers['x-gw-signature']!, c.body).ok)).toBe(true);
  });
});

suite('retries, the log, redeliver and the test route', () => {
  it('a receiver that fails twice then succeeds gets the event on the third attempt; the log shows 3 attempts and delivered', async () => {
    const rx = await receiver((n) => (n <= 2 ? 503 : 200));
    const hook = await makeHook(rx.url);
    const ping = await s.dash(t.key, 'POST', `/api/hooks/${hook.id}/test`);
    expect(ping.status).toBe(200);
    const { delivery_id, event_id } = ping.body.Meta;
    await rx.waitFor(3);
    const [entry] = await waitForLog(hook.id, (d) => d[0]?.status === 'delivered');
    expect(entry).toMatchObject({ id: delivery_id, event_id, event: 'Ping', status: 'delivered', attempts: 3, response_code: 200 });
    // Every attempt sends the same event (receivers dedupe by its id).
    expect(new Set(rx.calls.map((c) => JSON.parse(c.body).id))).toEqual(new Set([event_id]));
  });

  it('a receiver that always fails ends failed after the schedule; redeliver sends it once more', async () => {
    const rx = await receiver(() => 500);
    const hook = await makeHook(rx.url);
    const { delivery_id } = (await s.dash(t.key, 'POST', `/api/hooks/${hook.id}/test`)).body.Meta;
    const [failed] = await waitForLog(hook.id, (d) => d[0]?.status === 'failed');
    // HOOK_RETRY_SECONDS=1,1: the first attempt and two retries.
    expect(failed).toMatchObject({ id: delivery_id, status: 'failed', attempts: 3, response_code: 500, error: 'http_error' });
    expect(rx.calls).toHaveLength(3);

    const again = await s.dash(t.key, 'POST', `/api/hooks/${hook.id}/deliveries/${delivery_id}/redeliver`);
    expect(again.status).toBe(200);
    await rx.waitFor(4);
    const [after] = await waitForLog(hook.id, (d) => d[0]?.attempts === 4 && d[0]?.status !== 'pending');
    expect(after).toMatchObject({ status: 'failed', attempts: 4 });
    expect((await s.dash(t.key, 'POST', `/api/hooks/${hook.id}/deliveries/nope/redeliver`)).status).toBe(404);
  });

  it('another organisation cannot read the log, redeliver or ping: 404', async () => {
    const rx = await receiver();
    const hook = await makeHook(rx.url);
    const other = await s.tenant();
    expect((await s.dash(other.key, 'GET', `/api/hooks/${hook.id}/deliveries`)).status).toBe(404);
    expect((await s.dash(other.key, 'POST', `/api/hooks/${hook.id}/test`)).status).toBe(404);
    expect((await s.dash(other.key, 'POST', `/api/hooks/${hook.id}/signing-secret`)).status).toBe(404);
    await sleep(500);
    expect(rx.calls).toHaveLength(0);
  });
});

suite('delivery-time address checks', () => {
  it('without ALLOW_PRIVATE_TARGETS, loopback, private and metadata targets are refused at delivery: failed at once, nothing sent', async () => {
    const rx = await receiver();
    const targets = [rx.url, 'http://10.1.2.3/hook', 'http://169.254.169.254/latest/meta-data'];
    const hooks = await Promise.all(targets.map((u) => makeHook(u)));
    delete process.env.ALLOW_PRIVATE_TARGETS;
    try {
      for (const h of hooks) expect((await s.dash(t.key, 'POST', `/api/hooks/${h.id}/test`)).status).toBe(200);
      for (const h of hooks) {
        const [entry] = await waitForLog(h.id, (d) => d[0]?.status === 'failed');
        // Refused before any connection: no retry can help, so it is failed after one attempt. The
        // log names the class only, never the address it resolved to.
        expect(entry).toMatchObject({ status: 'failed', attempts: 1, error: 'refused_target' });
        expect(entry).not.toHaveProperty('response_code');
      }
      expect(rx.calls).toHaveLength(0);
    } finally {
      process.env.ALLOW_PRIVATE_TARGETS = '1';
    }
  });
});

suite('signing secrets', () => {
  it('rotation answers a new secret once; during the rotation window deliveries carry both signatures (new first), after it only the new one', async () => {
    const rx = await receiver();
    const hook = await makeHook(rx.url);
    const rotated = await s.dash(t.key, 'POST', `/api/hooks/${hook.id}/signing-secret`);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.signing_secret as string;
    expect(secret).not.toBe(hook.secret);
    const read = await s.dash(t.key, 'GET', `/api/hooks/${hook.id}`);
    expect(JSON.stringify(read.body)).not.toMatch(/signing_secret|rotated/);
    // HOOK_SECRET_ROTATION_SECONDS defaults to 24 h: a receiver still on the old secret keeps verifying.
    await s.dash(t.key, 'POST', `/api/hooks/${hook.id}/test`);
    const [during] = await rx.waitFor(1);
    const both = during!.headers['x-gw-signature']!;
    expect(both).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, both, during!.body).ok).toBe(true);
    expect(verifyWebhookSignature(hook.secret, both, during!.body).ok).toBe(true);
    expect(verifyWebhookSignature(`${secret}x`, both, during!.body).ok).toBe(false);
    // A window of 0 s (closed): only the new secret signs.
    process.env.HOOK_SECRET_ROTATION_SECONDS = '0';
    resetConfig();
    try {
      await s.dash(t.key, 'POST', `/api/hooks/${hook.id}/test`);
      const [, after] = await rx.waitFor(2);
      expect(after!.headers['x-gw-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(secret, after!.headers['x-gw-signature']!, after!.body).ok).toBe(true);
      expect(verifyWebhookSignature(hook.secret, after!.headers['x-gw-signature']!, after!.body).ok).toBe(false);
    } finally {
      delete process.env.HOOK_SECRET_ROTATION_SECONDS;
      resetConfig();
    }
  });
});

suite('event handlers name webhooks', () => {
  it('a classic or OAS definition naming an unknown webhook is 422 and stores nothing; known ones are kept and listed as hook_references', async () => {
    const rx = await receiver();
    const hook = await makeHook(rx.url);
    const classicId = uid('evapi');
    const classic = await s.gw('POST', '/gw/apis', {
      api_id: classicId,
      name: classicId,
      org_id: t.orgId,
      proxy: { listen_path: `/${classicId}/`, target_url: 'http://upstream.example' },
      event_handlers: { events: { QuotaExceeded: [{ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: 'no-such-hook' } }] } },
    });
    expect(classic.status).toBe(422);
    expect(JSON.stringify(classic.body)).toContain('no-such-hook');
    expect((await s.gw('GET', `/gw/apis/${classicId}`)).status).toBe(404);

    const oasId = uid('evoas');
    const handlers = (id: string) => ({
      server: {
        listenPath: { value: `/${oasId}/`, strip: true },
        eventHandlers: [{ enabled: true, id, name: 'ops', trigger: 'QuotaExceeded', type: 'webhook', cooldownPeriod: 30 }],
      },
    });
    // A hook of another organisation is unknown in this one.
    const other = await s.tenant();
    const foreign = (await s.dash(other.key, 'POST', '/api/hooks', { name: 'x', method: 'POST', target_path: rx.url })).body.Meta as string;
    expect((await s.gw('POST', '/gw/apis/oas', oasDoc(oasId, t.orgId, { gateway: handlers(foreign) }))).status).toBe(422);
    expect((await s.gw('GET', `/gw/apis/oas/${oasId}`)).status).toBe(404);
    expect((await s.gw('POST', '/gw/apis/oas', oasDoc(oasId, t.orgId, { gateway: handlers(hook.id) }))).status).toBe(200);
    expect((await s.gw('PUT', `/gw/apis/oas/${oasId}`, oasDoc(oasId, t.orgId, { gateway: handlers('gone') }))).status).toBe(422);
    expect((await s.gw('PUT', `/gw/apis/oas/${oasId}`, oasDoc(oasId, t.orgId, { gateway: handlers(hook.id) }))).status).toBe(200);

    // The dashboard's writes check the same: the import and the streams patch.
    // The import takes a plain document: event handlers come with a template.
    const templateId = uid('evtpl');
    const template = {
      id: templateId,
      name: 'events template',
      kind: 'oas-template',
      data: {
        'x-gw-api-gateway': { server: { listenPath: { value: `/${templateId}/`, strip: true }, eventHandlers: handlers('no-such-hook').server.eventHandlers } },
      },
    };
    expect((await s.dash(t.key, 'POST', '/api/assets', template)).status).toBe(200);
    const plain = { openapi: '3.0.3', info: { title: 'events import', version: '1' }, servers: [{ url: 'https://upstream.example' }], paths: {} };
    const refusedImport = await s.dash(t.key, 'POST', `/api/apis/oas/import?templateID=${templateId}`, plain, { 'content-type': 'application/json' });
    expect(refusedImport.status, JSON.stringify(refusedImport.body)).toBe(422);
    expect(JSON.stringify(refusedImport.body)).toContain('no-such-hook');
    const streamed = (await s.gw('GET', `/gw/apis/oas/${oasId}`)).body;
    const streamsBody = {
      ...streamed,
      'x-gw-api-gateway': {
        ...streamed['x-gw-api-gateway'],
        server: { ...streamed['x-gw-api-gateway'].server, eventHandlers: handlers('no-such-hook').server.eventHandlers },
      },
      'x-gw-streaming': { streams: {} },
    };
    const refusedPatch = await s.dash(t.key, 'PATCH', `/api/apis/streams/${oasId}`, streamsBody, { 'content-type': 'application/vnd.gw.streams.oas' });
    expect(refusedPatch.status).toBe(422);
    expect((await s.gw('GET', `/gw/apis/oas/${oasId}`)).body['x-gw-api-gateway'].server.eventHandlers[0].id).toBe(hook.id);

    const listing = await s.dash(t.key, 'GET', '/api/apis?p=1&page_size=100');
    const entry = listing.body.apis.find((a: any) => a.api_definition.api_id === oasId);
    expect(entry.hook_references).toEqual([{ event_name: 'QuotaExceeded', event_timeout: 30, hook: { id: hook.id, name: 'ops' } }]);
  });
});
