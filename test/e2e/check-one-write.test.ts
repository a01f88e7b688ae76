/**
 * The check's storage (shared/store/live-quota/): an allowed check is ONE conditional
 * UpdateItem on the key's counter item, which holds its quota window and its rate window
 * together; refusals come from that same write (its ALL_OLD answer says which limit refused);
 * an elapsed window renews exactly once under contention; the organisation's counter is written
 * only after the key's admitted, and only when the organisation has a quota.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateWindow } from '../../shared/domain/quota';
import { counterDb, ddb, tableName } from '../../shared/store/db/client';
import { counterOf } from '../../shared/store/keys';
import type { CounterLimits } from '../../shared/store/live-quota/counters';
import { spend } from '../../shared/store/live-quota/spend';
import { orgSessionKeys } from '../../shared/store/org-sessions';
import { keyHash } from '../../shared/domain/key-ids';
import { makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { onEmulator, startStage, type Stage } from '../support/stage';

let s: Stage;
beforeAll(async () => {
  s = await startStage();
});
afterAll(() => s.close());

/** Every command either client of the store sends while `run` runs, with the item it names. */
const sent: { command: string; key: string }[] = [];
let recording = false;
beforeAll(() => {
  for (const client of [ddb(), counterDb()]) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (recording) {
          const input = args.input as { Key?: { PK: string; SK: string } };
          sent.push({ command: context.commandName ?? '?', key: input.Key ? `${input.Key.PK}|${input.Key.SK}` : '' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'checkWriteCounter', override: true },
    );
  }
});
async function recorded<T>(run: () => Promise<T>): Promise<{ result: T; commands: { command: string; key: string }[] }> {
  sent.length = 0;
  recording = true;
  try {
    const result = await run();
    return { result, commands: [...sent] };
  } finally {
    recording = false;
  }
}

const read = async (key: { PK: string; SK: string }) =>
  (await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const NOW = Math.floor(Date.now() / 1000);
const limits = (max: number, rate?: { rate: number; per: number }, now = NOW, renewalRate = 3600): CounterLimits => ({
  max,
  renewalRate,
  rate: rate ? rateWindow(rate.rate, rate.per, now) : null,
});

describe('the check is one conditional write on one item', () => {
  it('in the steady state an allowed check sends exactly one UpdateItem, to the counter holding both windows', async () => {
    const ref = counterOf(uid('steady'), '');
    const l = limits(100, { rate: 50, per: 60 });
    expect((await spend(ref, l, NOW)).ok).toBe(true); // the first spend opens both windows
    const { result, commands } = await recorded(() => spend(ref, l, NOW));
    expect(result).toMatchObject({ ok: true, used: 2 });
    expect(commands).toEqual([{ command: 'UpdateItemCommand', key: `${ref.head.PK}|${ref.head.SK}` }]);
    expect(await read(ref.head)).toMatchObject({ used: 2, rate_count: 2, rate_start: l.rate!.start, renews: NOW + 3600 });
  });

  it('a full rate window refuses from the one write, and changes nothing', async () => {
    const ref = counterOf(uid('rate'), '');
    const l = limits(100, { rate: 3, per: 60 });
    for (let i = 0; i < 3; i++) expect((await spend(ref, l, NOW)).ok).toBe(true);
    const before = await read(ref.head);
    const { result, commands } = await recorded(() => spend(ref, l, NOW));
    // The refusal says when the window ends (Retry-After): the window's start plus its length.
    expect(result).toEqual({ ok: false, reason: 'RateLimitExceeded', until: l.rate!.start + 60 });
    expect(commands.map((c) => c.command)).toEqual(['UpdateItemCommand']);
    expect(await read(ref.head)).toEqual(before);
  });

  it('a spent quota refuses from the one write, and changes nothing', async () => {
    const ref = counterOf(uid('quota'), '');
    const l = limits(2, { rate: 100, per: 60 });
    for (let i = 0; i < 2; i++) expect((await spend(ref, l, NOW)).ok).toBe(true);
    const before = await read(ref.head);
    const { result, commands } = await recorded(() => spend(ref, l, NOW));
    // The refusal says when the quota renews (Retry-After).
    expect(result).toEqual({ ok: false, reason: 'QuotaExceeded', until: before!.renews });
    expect(commands.map((c) => c.command)).toEqual(['UpdateItemCommand']);
    expect(await read(ref.head)).toEqual(before);
  });

  it('with both limits reached the rate limit is named, as the gateway checks it first', async () => {
    const ref = counterOf(uid('both'), '');
    const l = limits(2, { rate: 2, per: 60 });
    for (let i = 0; i < 2; i++) expect((await spend(ref, l, NOW)).ok).toBe(true);
    expect(await spend(ref, l, NOW)).toEqual({ ok: false, reason: 'RateLimitExceeded', until: expect.any(Number) });
  });

  it('a new rate window opens in the same write as the quota spend', async () => {
    const ref = counterOf(uid('rate-next'), '');
    const first = limits(10, { rate: 1, per: 60 }, NOW);
    expect((await spend(ref, first, NOW)).ok).toBe(true);
    expect(await spend(ref, first, NOW)).toEqual({ ok: false, reason: 'RateLimitExceeded', until: expect.any(Number) });
    const later = NOW + 60;
    const next = limits(10, { rate: 1, per: 60 }, later);
    expect(await spend(ref, next, later)).toMatchObject({ ok: true, used: 2 });
    expect(await read(ref.head)).toMatchObject({ used: 2, rate_start: next.rate!.start, rate_count: 1 });
  });
});

describe('renewal at the window edge under contention', () => {
  it('60 concurrent checks at the edge, half on the old clock: each window admits at most quota_max, the new one exactly', async () => {
    const ref = counterOf(uid('edge'), '');
    const max = 10;
    const renewal = 30;
    // The current window has 5 units left.
    for (let i = 0; i < 5; i++) expect((await spend(ref, limits(max, undefined, NOW, renewal), NOW)).ok).toBe(true);
    const edge = Number((await read(ref.head))!.renews);
    const clocks = Array.from({ length: 60 }, (_, i) => (i % 2 ? edge - 1 : edge));
    const results = await Promise.all(clocks.map((now) => spend(ref, limits(max, { rate: 1000, per: 60 }, now, renewal), now)));
    const allowed = results.filter((r) => r.ok);
    const perWindow = allowed.reduce<Record<number, number>>((a, r) => ({ ...a, [r.renews]: (a[r.renews] ?? 0) + 1 }), {});
    expect(perWindow[edge] ?? 0).toBeLessThanOrEqual(5);
    expect(perWindow[edge + renewal]).toBe(max);
    expect(Object.keys(perWindow).map(Number).sort()).toEqual(perWindow[edge] ? [edge, edge + renewal] : [edge + renewal]);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'QuotaExceeded')).toBe(true);
    // Exactly one renewal: the stored window is the new one, holding the units it admitted.
    expect(await read(ref.head)).toMatchObject({ used: max, renews: edge + renewal });
    // Each admitted check saw its own count: no two were handed the same unit of a window.
    for (const w of Object.keys(perWindow)) {
      const counts = allowed.filter((r) => r.ok && r.renews === Number(w)).map((r) => (r.ok ? r.used : 0));
      expect(new Set(counts).size).toBe(counts.length);
    }
  });
});

describe("the organisation's quota after the key's", () => {
  // These read the commands this process's client sends; on the emulated stage the check's
  // functions send them from their own processes (README "Tests").
  const ownCommands = it.skipIf(onEmulator);
  const check = (key: string, api: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: api });

  ownCommands('without an organisation quota an allowed check writes only the key counter', async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 5, quota_renewal_rate: 3600, rate: 100, per: 60 });
    expect((await check(key, api)).status).toBe(200); // warms the session cache and opens the windows
    const { result, commands } = await recorded(() => check(key, api));
    expect(result.status).toBe(200);
    const head = counterOf(keyHash(key), '').head;
    expect(commands).toEqual([{ command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` }]);
  });

  ownCommands("a key refused by its own quota leaves the organisation's counter alone; an allowed one writes the key's, then the organisation's", async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    expect((await s.gw('PUT', `/gw/org/keys/${t.orgId}`, { quota_max: 100, quota_renewal_rate: 3600 })).status).toBe(200);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 2, quota_renewal_rate: 3600 });
    const head = counterOf(keyHash(key), '').head;
    const org = orgSessionKeys.quota(t.orgId);
    expect((await check(key, api)).status).toBe(200);
    const allowed = await recorded(() => check(key, api));
    expect(allowed.result.status).toBe(200);
    expect(allowed.commands).toEqual([
      { command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` },
      { command: 'UpdateItemCommand', key: `${org.PK}|${org.SK}` },
    ]);
    const refused = await recorded(() => check(key, api));
    expect(refused.result.body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
    // The refusal also records its QuotaExceeded event (one PutItem, contract §11); the organisation's counter is not touched.
    expect(refused.commands).toEqual([
      { command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` },
      { command: 'PutItemCommand', key: '' },
    ]);
    // A second refusal within a second records no second event (contract §11): the one write only.
    const again = await recorded(() => check(key, api));
    expect(again.result.status).toBe(429);
    expect(again.commands).toEqual([{ command: 'UpdateItemCommand', key: `${head.PK}|${head.SK}` }]);
    expect(await read(org)).toMatchObject({ used: 2 });
  });

  it("an organisation refusal gives the key its unit and its rate count back", async () => {
    const t = await s.tenant();
    const api = await makeApi(s, t.orgId);
    expect((await s.gw('PUT', `/gw/org/keys/${t.orgId}`, { quota_max: 1, quota_renewal_rate: 3600 })).status).toBe(200);
    const a = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 5, quota_renewal_rate: 3600, rate: 10, per: 60 });
    const b = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 5, quota_renewal_rate: 3600, rate: 10, per: 60 });
    expect((await check(a.key, api)).status).toBe(200);
    const refused = await check(b.key, api);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
    expect(await read(counterOf(keyHash(b.key), '').head)).toMatchObject({ used: 0, rate_count: 0 });
    expect((await s.gw('GET', `/gw/keys/${b.key}`)).body.quota_remaining).toBe(5);
  });
});
