/**
 * The check's storage (shared/store/live-quota/), called directly on DynamoDB Local: an allowed
 * check is ONE conditional UpdateItem on the key's counter item, which holds its quota window and
 * its rate window together; refusals come from that same write (its ALL_OLD answer says which
 * limit refused); an elapsed window renews exactly once under contention. The check through HTTP
 * (the organisation's counter after the key's) is test/e2e/check-one-write.test.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { rateWindow } from '../../shared/domain/quota';
import { ddb, tableName } from '../../shared/store/db/client';
import { counterOf, refundKeyQuota } from '../../shared/store/keys';
import type { CounterLimits } from '../../shared/store/live-quota/counters';
import { spend } from '../../shared/store/live-quota/spend';
import { uid } from '../support/fixtures';
import { commandRecorder } from '../support/sent-commands';
import { useTestTable } from '../support/table';

beforeAll(async () => {
  await useTestTable();
});
const recorded = commandRecorder();

const read = async (key: { PK: string; SK: string }) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

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

describe("an allowed spend's answer", () => {
  const ORG = { org_id: 'o1', api_id: 'a1', day: '2026-11-29' };

  it('carries only the attributes the write updated, among them the windows the check reads, not the whole item', async () => {
    const ref = counterOf(uid('answer'), '');
    const l = { ...limits(100, { rate: 50, per: 60 }), tally: ORG };
    const opened = await recorded(() => spend(ref, l, NOW));
    expect(opened.updates).toEqual([['entity', 'rate_count', 'rate_start', 'renews', 'tally_allowed', 'tally_of', 'used']]);
    const steady = await recorded(() => spend(ref, l, NOW));
    expect(steady.updates).toEqual([['rate_count', 'rate_start', 'renews', 'tally_allowed', 'tally_of', 'used']]);
    const stored = await read(ref.head);
    expect(steady.result).toEqual({ ok: true, used: 2, renews: stored!.renews, receipt: { item: ref.head, renews: stored!.renews, rateStart: l.rate!.start } });
  });

  it("hands a refund the steady state's windows: the unit and its rate count go back", async () => {
    const ref = counterOf(uid('refund'), '');
    const l = limits(100, { rate: 50, per: 60 });
    expect((await spend(ref, l, NOW)).ok).toBe(true);
    const second = await spend(ref, l, NOW);
    if (!second.ok) throw new Error('the second spend was refused');
    await refundKeyQuota(second.receipt);
    expect(await read(ref.head)).toMatchObject({ used: 1, rate_count: 1 });
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
