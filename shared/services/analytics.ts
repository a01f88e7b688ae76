/**
 * Key analytics: gateways report request records, added to hourly per-key counters by atomic
 * updates; the dashboard reads a key's activity over whole days (contract §9).
 */
import { NotFound } from '../errors';
import { activityRange, aggregateActivity, batchFingerprint, COUNTERS_PER_CHUNK, planIngest, type KeyInfo } from '../domain/analytics';
import { slicesOf } from '../lib/slices';
import { mapLimit } from '../lib/concurrency';
import { pageRequest, pageRows } from '../domain/paging';
import type { AnalyticsRecord, KeyActivityParams } from '../schemas/analytics';
import type { PageQuery } from '../schemas/common';
import { serviceKey } from '../secrets';
import { summariseUsage, usageRange, usageRows, type Resolution } from '../domain/usage';
import type { UsageParams } from '../schemas/analytics';
import { claimBatch, loadAppliedChunks, saveChunk } from '../store/analytics-batches';
import { loadApiUsage, saveUsageMaxima } from '../store/api-usage';
import { loadKeyCounters, saveCounterBounds } from '../store/key-activity';
import { loadKeySession, loadKeySessions } from '../store/keys';
import { offboardedAmong } from '../store/offboarding';
import { orgApiSummary } from './org-apis';

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
  // A key of an organisation being offboarded counts as unknown: nothing more is stored for it.
  const offboarded = await offboardedAmong([...keyInfo.values()].map((k) => k.org_id ?? ''));
  const keyOf = (h: string) => {
    const k = keyInfo.get(h);
    return k && !offboarded.has(k.org_id ?? '') ? k : undefined;
  };
  let plan = planIngest(records, keyOf);
  let chunkOf = (_n: number): { batchId: string; run: string; n: number } | undefined => undefined;
  let applied = new Set<number>();
  if (batchId !== undefined) {
    const claim = await claimBatch(batchId, batchFingerprint(records), plan.refused);
    plan = planIngest(records, keyOf, claim.refused);
    chunkOf = (n) => ({ batchId, run: claim.run, n });
    if (claim.retry) applied = await loadAppliedChunks(batchId, claim.run);
  }
  // Each stored record also adds to its API's hourly usage: the runs of those counters are numbered
  // after the key counters', so a retried batch finds both among its applied chunks.
  const skip = new Set(plan.refused);
  const usage = summariseUsage(
    records.filter((_, i) => !skip.has(i)),
    (r) => r.org_id || keyOf(r.key_hash)?.org_id || '',
  );
  const keyChunks = slicesOf(plan.deltas, COUNTERS_PER_CHUNK).map((deltas, n) => ({ deltas: deltas as Parameters<typeof saveChunk>[0], n }));
  const usageChunks = slicesOf(usage, COUNTERS_PER_CHUNK).map((u, i) => ({ deltas: { usage: u }, n: keyChunks.length + i }));
  // The marker in each transaction still guards a chunk that a concurrent attempt applies meanwhile.
  await mapLimit(
    [...keyChunks, ...usageChunks].filter((c) => !applied.has(c.n)),
    CHUNK_WRITERS,
    (c) => saveChunk(c.deltas, chunkOf(c.n)),
  );
  // Also after a retry: the attempt that applied the chunks may have died before this step.
  await saveCounterBounds(plan.deltas);
  await saveUsageMaxima(usage);
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
  const rows = aggregateActivity(params.keyHash, await loadKeyCounters(params.keyHash, range));
  return pageRows(rows, pageRequest(query), `activity ${params.keyHash}/${range.from}/${range.to}`, await serviceKey('cursor'));
}

/**
 * GET /api/usage/apis/{apiID}/...: an API of the caller's organisation (404 otherwise), one row per
 * hour or day of the range, zero-filled, from its hourly usage counters (one Query).
 */
export async function apiUsage(orgId: string, params: UsageParams & { apiID: string }, resolution: Resolution) {
  const range = usageRange(params, resolution);
  const api = await orgApiSummary(orgId, params.apiID);
  if (!api) throw new NotFound(`API ${params.apiID} not found`);
  const items = await loadApiUsage(orgId, api.api_id, range.firstHour, range.lastHour);
  return { resolution, from: range.from, to: range.to, data: usageRows(items, range) };
}

/** GET /api/usage/keys/{keyHash}/...: a key of the caller's organisation (404 otherwise), from its hourly counters (one Query). */
export async function keyUsage(orgId: string, params: UsageParams & { keyHash: string }, resolution: Resolution) {
  const range = usageRange(params, resolution);
  const key = await loadKeySession(params.keyHash);
  if (!key || key.org_id !== orgId) throw new NotFound(`key ${params.keyHash} not found`);
  const days = { from: range.from.slice(0, 10), to: range.lastHour.slice(0, 10), days: 0 };
  const items = await loadKeyCounters(params.keyHash, days);
  return { resolution, from: range.from, to: range.to, data: usageRows(items as unknown as Parameters<typeof usageRows>[0], range) };
}
