/**
 * Idempotent analytics batches on DynamoDB Local: a first attempt that dies after applying only
 * some of its transactions is completed exactly by the retry (no record counted twice, none lost).
 * The death is simulated by failing one chunk's transaction: the others of that attempt go through.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { aggregateActivity, type CounterItem } from '../../shared/domain/analytics';
import type { AnalyticsRecord } from '../../shared/schemas/analytics';
import { ingestRecords } from '../../shared/services/analytics';
import { loadKeyCounters } from '../../shared/store/key-activity';
import { ddb, tableName } from '../../shared/store/db/client';
import { transactWrite, type TxItem } from '../../shared/store/db/transactions';
import { useTestTable } from '../support/table';

vi.mock('../../shared/store/db/transactions', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared/store/db/transactions')>();
  return { ...real, transactWrite: vi.fn(real.transactWrite) };
});

const HASH = 'a'.repeat(64);
const realTransactWrite = vi.mocked(transactWrite).getMockImplementation()!;

beforeAll(async () => {
  await useTestTable();
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { PK: `KEY#${HASH}`, SK: 'KEY', session: { key_hash: HASH, org_id: 'o1' } } }));
});

/** 300 records over 250 counters: three transactions (99, 99, 52 counters). */
const records = (day: string): AnalyticsRecord[] =>
  Array.from({ length: 300 }, (_, i) => ({
    api_id: 'api1',
    path: `/p/${i % 250}`,
    method: 'GET',
    response_code: i % 7 ? 200 : 502,
    key_hash: HASH,
    org_id: 'o1',
    timestamp: `${day}T${String((i % 250) % 3).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
    request_time: 5 + (i % 11),
    latency: { total: 20 + (i % 17), upstream: 10 + (i % 5) },
  }));

const rows = async (day: string) => aggregateActivity(HASH, (await loadKeyCounters(HASH, { from: day, to: day, days: 1 })) as CounterItem[]);
const hits = async (day: string) => (await rows(day)).reduce((t, r) => t + r.hits, 0);

/** Rows as the records alone say they should be. */
async function expectExact(day: string, recs: AnalyticsRecord[]) {
  const got = await rows(day);
  expect(got).toHaveLength(250);
  for (const r of got) {
    const mine = recs.filter((x) => x.path === r.id.path);
    expect(r.hits, r.id.path).toBe(mine.length);
    expect(r.error).toBe(mine.filter((x) => x.response_code >= 400).length);
    expect(r.min_latency).toBe(Math.min(...mine.map((x) => x.latency.total)));
    expect(r.max_latency).toBe(Math.max(...mine.map((x) => x.latency.total)));
    expect(r.latency).toBeCloseTo(mine.reduce((t, x) => t + x.latency.total, 0) / mine.length, 9);
  }
}

const isChunk = (items: TxItem[], n: number) => String(items[0]?.op.Put?.Item?.SK ?? '').endsWith(`#${n}`);

describe('analytics batches', () => {
  it('a batch whose first attempt applied only some chunks is completed exactly by its retry', async () => {
    const day = '2024-09-01';
    const recs = records(day);
    const pending: Promise<unknown>[] = [];
    vi.mocked(transactWrite).mockImplementation((items) => {
      const p = isChunk(items, 1) ? Promise.reject(new Error('the function died here')) : realTransactWrite(items);
      pending.push(p.catch(() => undefined));
      return p;
    });
    await expect(ingestRecords(recs, 'batch-half')).rejects.toThrow('the function died here');
    await Promise.all(pending);
    const partial = await hits(day);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(300);

    vi.mocked(transactWrite).mockImplementation(realTransactWrite);
    const calls = vi.mocked(transactWrite).mock.calls.length;
    expect(await ingestRecords(recs, 'batch-half')).toEqual({ stored: 300, unknown_keys: 0, counters: 250 });
    // Only the chunk that had failed was written again.
    expect(vi.mocked(transactWrite).mock.calls.length - calls).toBe(1);
    await expectExact(day, recs);

    expect(await ingestRecords(recs, 'batch-half')).toEqual({ stored: 300, unknown_keys: 0, counters: 250 });
    await expectExact(day, recs);
  });

  it('the same batch sent five times at once is counted once', async () => {
    const day = '2024-09-02';
    const recs = records(day);
    const answers = await Promise.all(Array.from({ length: 5 }, () => ingestRecords(recs, 'batch-concurrent')));
    for (const a of answers) expect(a).toEqual({ stored: 300, unknown_keys: 0, counters: 250 });
    await expectExact(day, recs);
  });

  it('without a batch id, a resent batch counts again (the old behaviour, for gateways that send none)', async () => {
    const day = '2024-09-03';
    const recs = records(day);
    await ingestRecords(recs);
    await ingestRecords(recs);
    expect(await hits(day)).toBe(600);
  });
});
