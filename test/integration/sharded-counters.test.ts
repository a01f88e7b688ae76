/**
 * Hot keys (shared/store/live-quota/shards.ts), called directly on DynamoDB Local: a counter
 * split into shards that a check picks among stays exact: never more than quota_max allowed per
 * window, no refusal while a unit is left anywhere (spill-over), one renewal per window, and
 * switching a key between one item and shards neither loses nor grants a unit. A key that shards
 * itself when throttled, through the stage, is test/e2e/hot-keys.test.ts.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/store/db/client';
import { counterOf, forgetKeyCounterHints } from '../../shared/store/keys';
import { layouts, refName, type CounterLimits, type Layout } from '../../shared/store/live-quota/counters';
import { demoteCounter, promote } from '../../shared/store/live-quota/shards';
import { spend } from '../../shared/store/live-quota/spend';
import { uid } from '../support/fixtures';
import { commandRecorder } from '../support/sent-commands';
import { useTestTable } from '../support/table';

beforeAll(async () => {
  await useTestTable();
});
const recorded = commandRecorder();

const NOW = Math.floor(Date.now() / 1000);
const limits = (max: number, renewalRate = 3600): CounterLimits => ({ max, renewalRate, rate: null });
const read = async (key: { PK: string; SK: string }) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
async function shardsOf(hash: string) {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': counterOf(hash, '').head.PK, ':p': 'SHARD##' },
    }),
  );
  return out.Items ?? [];
}
const tally = <T>(xs: T[]) => xs.reduce<Record<string, number>>((a, x) => ({ ...a, [String(x)]: (a[String(x)] ?? 0) + 1 }), {});

describe('a sharded counter', () => {
  it('200 concurrent checks across 8 shards: exactly quota_max allowed, the shards hold exactly that', async () => {
    const hash = uid('exact');
    const ref = counterOf(hash, '');
    const layout = await promote(ref, limits(120), NOW, 8);
    expect(layout.n).toBe(8);
    const results = await Promise.all(Array.from({ length: 200 }, () => spend(ref, limits(120), NOW)));
    expect(tally(results.map((r) => (r.ok ? 'ok' : r.reason)))).toEqual({ ok: 120, QuotaExceeded: 80 });
    const shards = await shardsOf(hash);
    expect(shards).toHaveLength(8);
    expect(shards.reduce((a, sh) => a + Number(sh.used), 0)).toBe(120);
    // Each shard spent exactly its share (120 / 8), never more.
    expect(shards.map((sh) => Number(sh.used))).toEqual(Array(8).fill(15));
  });

  it('spills over: every unit is found while any shard has one, then every check is refused', async () => {
    const hash = uid('spill');
    const ref = counterOf(hash, '');
    await promote(ref, limits(13), NOW, 8);
    // 13 over 8 shards: shares 2,2,2,2,2,1,1,1. Each check starts at a random shard; the spent
    // ones are skipped, so all 13 are allowed one after the other.
    for (let i = 0; i < 13; i++) expect((await spend(ref, limits(13), NOW)).ok, `check ${i + 1}`).toBe(true);
    expect(await spend(ref, limits(13), NOW)).toMatchObject({ ok: false, reason: 'QuotaExceeded', until: expect.any(Number) });
    // Another process (nothing remembered of spent shards) refuses too, after trying them all.
    forgetKeyCounterHints(hash);
    const again = await Promise.all(Array.from({ length: 50 }, () => spend(ref, limits(13), NOW)));
    expect(again.every((r) => !r.ok && r.reason === 'QuotaExceeded')).toBe(true);
    expect((await shardsOf(hash)).reduce((a, sh) => a + Number(sh.used), 0)).toBe(13);
  });

  it('renews every shard once at the window edge under 200 concurrent checks, on one grid', async () => {
    const hash = uid('renew');
    const ref = counterOf(hash, '');
    const renewal = 30;
    await promote(ref, limits(40, renewal), NOW, 8);
    const first = await Promise.all(Array.from({ length: 60 }, () => spend(ref, limits(40, renewal), NOW)));
    expect(first.filter((r) => r.ok)).toHaveLength(40);
    const edge = NOW + renewal;
    forgetKeyCounterHints(hash);
    const second = await Promise.all(Array.from({ length: 200 }, () => spend(ref, limits(40, renewal), edge)));
    expect(tally(second.map((r) => (r.ok ? `ok@${r.renews}` : r.reason)))).toEqual({ [`ok@${edge + renewal}`]: 40, QuotaExceeded: 160 });
    const shards = await shardsOf(hash);
    expect(shards.every((sh) => Number(sh.renews) === edge + renewal)).toBe(true);
    expect(shards.reduce((a, sh) => a + Number(sh.used), 0)).toBe(40);
  });

  it('switching modes under load (one item -> shards -> one item) neither loses nor grants a unit', async () => {
    const hash = uid('switch');
    const ref = counterOf(hash, '');
    const max = 150;
    for (let i = 0; i < 30; i++) expect((await spend(ref, limits(max), NOW)).ok).toBe(true);
    // Promote while 60 checks run, then demote while 60 more run, then drain.
    const during = await Promise.all([...Array.from({ length: 60 }, () => spend(ref, limits(max), NOW)), promote(ref, limits(max), NOW, 8).then(() => null)]);
    expect(typeof (await read(ref.head))?.shard_gen).toBe('string');
    const folding = await Promise.all([...Array.from({ length: 60 }, () => spend(ref, limits(max), NOW)), demoteCounter(ref, NOW).then(() => null)]);
    const head = await read(ref.head);
    expect(head?.shard_gen).toBeUndefined();
    expect(await shardsOf(hash)).toHaveLength(0);
    forgetKeyCounterHints(hash);
    const drain = await Promise.all(Array.from({ length: 100 }, () => spend(ref, limits(max), NOW)));
    const allowed = [...during, ...folding, ...drain].filter((r) => r?.ok).length;
    expect(30 + allowed).toBe(max);
    expect(Number((await read(ref.head))?.used)).toBe(max);
  });
});

describe("what a process knows of one hot counter's layout", () => {
  /** Two hot keys whose layouts this process knows (each spent once through its shards). */
  async function twoHotKeys() {
    const [a, b] = [counterOf(uid('fold'), ''), counterOf(uid('hot'), '')];
    for (const ref of [a, b]) {
      await promote(ref, limits(100), NOW, 8);
      expect((await spend(ref, limits(100), NOW)).ok).toBe(true);
    }
    return { a, b };
  }
  const shardWrite = (ref: { head: { PK: string } }) => [{ command: 'UpdateItemCommand', key: expect.stringMatching(new RegExp(`^${ref.head.PK}\\|SHARD#`)) }];

  it("goes with that counter's fold alone: another hot key's next check is still one write, to a shard", async () => {
    const { a, b } = await twoHotKeys();
    await demoteCounter(a, NOW);
    const next = await recorded(() => spend(b, limits(100), NOW));
    expect(next.result.ok).toBe(true);
    expect(next.commands).toEqual(shardWrite(b));
  });

  it("found gone (folded by another process), is forgotten alone: another hot key's next check is still one write", async () => {
    const { a, b } = await twoHotKeys();
    const known = layouts.get(refName(a.head)) as Layout;
    await demoteCounter(a, NOW);
    // Another process folded it: this one still holds the old layout.
    layouts.set(refName(a.head), known);
    expect((await spend(a, limits(100), NOW)).ok).toBe(true);
    const next = await recorded(() => spend(b, limits(100), NOW));
    expect(next.commands).toEqual(shardWrite(b));
  });
});
