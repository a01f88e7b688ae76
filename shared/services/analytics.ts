/**
 * Key analytics: gateways report request records, added to hourly per-key counters by atomic
 * updates; the dashboard reads a key's activity over whole days (contract §9).
 */
import { NotFound } from '../errors';
import { activityRange, aggregateActivity, batchFingerprint, chunksOf, COUNTERS_PER_CHUNK, pageRows, planIngest, type KeyInfo } from '../domain/analytics';
import { mapLimit } from '../domain/concurrency';
import { pageRequest } from '../domain/paging';
import type { AnalyticsRecord, KeyActivityParams } from '../schemas/analytics';
import type { PageQuery } from '../schemas/common';
import { serviceKey } from '../secrets';
import { appliedChunks, applyBounds, claimBatch, readKeyCounters, writeChunk } from '../store/analytics';
import { loadKeySession, loadKeySessions } from '../store/keys';

/** Transactions of one call in flight at once: 1,000 new counters are 11 transactions, 3 rounds. */
const CHUNK_WRITERS = 4;

export interface IngestResult {
  stored: number;
  unknown_keys: number;
  counters: number;
}

/**
 * Adds a call's records to the hourly counters of their keys; records of unknown keys (or of a
 * key of another organisation than their org_id) are counted only. With a `batchId` the call is
 * idempotent: a retry of the same batch, whether the first attempt finished or died half-way,
 * applies each counter's share exactly once and answers the same (422 when the batch_id came with
 * other records).
 */
export async function ingestRecords(records: readonly AnalyticsRecord[], batchId?: string): Promise<IngestResult> {
  const hashes = [...new Set(records.map((r) => r.key_hash))];
  const keyInfo: Map<string, KeyInfo> = await loadKeySessions(hashes);
  const keyOf = (h: string) => keyInfo.get(h);
  let plan = planIngest(records, keyOf);
  let chunkOf = (_n: number): { batchId: string; run: string; n: number } | undefined => undefined;
  let applied = new Set<number>();
  if (batchId !== undefined) {
    const claim = await claimBatch(batchId, batchFingerprint(records), plan.refused);
    plan = planIngest(records, keyOf, claim.refused);
    chunkOf = (n) => ({ batchId, run: claim.run, n });
    if (claim.retry) applied = await appliedChunks(batchId, claim.run);
  }
  const chunks = chunksOf(plan.deltas, COUNTERS_PER_CHUNK).map((deltas, n) => ({ deltas, n }));
  // The marker in each transaction still guards a chunk that a concurrent attempt applies meanwhile.
  await mapLimit(chunks.filter((c) => !applied.has(c.n)), CHUNK_WRITERS, (c) => writeChunk(c.deltas, chunkOf(c.n)));
  // Also after a retry: the attempt that applied the chunks may have died before this step.
  await applyBounds(plan.deltas);
  return { stored: plan.stored, unknown_keys: plan.unknown, counters: plan.deltas.length };
}

/**
 * One row per (API, path) of a key over whole days (at most 366), busiest first, paged: 400 bad
 * or reversed dates, 404 for a key unknown or of another organisation.
 */
export async function keyActivity(orgId: string, params: KeyActivityParams, query: PageQuery) {
  const range = activityRange(params);
  const key = await loadKeySession(params.keyHash);
  if (!key || key.org_id !== orgId) throw new NotFound(`key ${params.keyHash} not found`);
  const rows = aggregateActivity(params.keyHash, await readKeyCounters(params.keyHash, range));
  return pageRows(rows, pageRequest(query), `${params.keyHash}/${range.from}/${range.to}`, await serviceKey('cursor'));
}
