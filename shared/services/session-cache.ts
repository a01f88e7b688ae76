/**
 * What the data-plane check reads about a key (its session under its policies, and its
 * organisation's session), kept for CACHE_SECONDS in a warm process so a check costs one
 * conditional update. Counters are never cached: quotas stay exact. A key write in this
 * process forgets that key's entry (forgetKeySession); a policy or organisation-session write
 * clears the whole cache (forgetSessions), each with what the live-quota store remembers of shards,
 * so one process (the local stage) never sees a stale session; other warm processes see a
 * change within CACHE_SECONDS. A stale shard layout costs one failed conditional write, never a
 * unit; a stale spent-shard hint is the bound docs/reference/limits.md states for hot keys.
 */
import { config } from '../config';
import { policyIdsOf } from '../domain/key-rules';
import { applyPolicies } from '../domain/policies';
import { TtlCache } from '../lib/ttl-cache';
import type { KeySession } from '../schemas/keys';
import { forgetKeyCounterHints, type StoredKey } from '../store/keys';
import { forgetCounterHints } from '../store/live-quota/counters';
import { loadPolicies } from '../store/policies';

export interface CachedSession {
  session: StoredKey;
  org: KeySession | undefined;
}

export const sessionCache = new TtlCache<CachedSession>(() => config().cacheMs);

/** The session a check enforces: the key under its policies (missing policies grant nothing). */
export async function effectiveSession(session: StoredKey): Promise<StoredKey> {
  const ids = policyIdsOf(session);
  if (!ids.length) return session;
  const policies = await loadPolicies(ids);
  return applyPolicies(
    session,
    ids.flatMap((id) => policies.filter((p) => p.id === id)),
  );
}

/**
 * A key was written or deleted: only its own entry and its counters' hints go. Other keys'
 * sessions did not change, and clearing them all made the next check of every key in the process
 * cost three sequential round trips (key, organisation session, spend).
 */
export function forgetKeySession(hash: string): void {
  sessionCache.delete(hash);
  forgetKeyCounterHints(hash);
}

/** A policy or an organisation session changed: any key's effective session may have. */
export function forgetSessions(): void {
  sessionCache.clear();
  // What this process remembered of hot keys' shards (which are sharded, which are spent).
  forgetCounterHints();
}
