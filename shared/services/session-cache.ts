/**
 * What the data-plane check reads about a key (its session under its policies, and its
 * organisation's session), kept for CACHE_SECONDS in a warm process so a check costs one
 * conditional update. Counters are never cached: quotas stay exact. A write in this process
 * forgets exactly the entries built from what it wrote, with what the live-quota store remembers
 * of their counters: a key's own (forgetKeySession), those of the keys that apply a written
 * policy (forgetPolicySessions), those of an organisation's keys when its session is written
 * (forgetOrgSessions). An API is no part of an entry (the check reads the key's rights for it),
 * so its writes forget none. Every other entry stays, so the next check of every other key is
 * still one round trip; this process (the local stage) never sees a stale session, and other
 * warm processes see a change within CACHE_SECONDS. A stale shard layout costs one failed
 * conditional write, never a unit; a stale spent-shard hint is the bound
 * docs/reference/limits.md states for hot keys.
 */
import { config } from '../config';
import { policyIdsOf } from '../domain/key-rules';
import { applyPolicies } from '../domain/policies';
import { TtlCache } from '../lib/ttl-cache';
import type { KeySession } from '../schemas/keys';
import { forgetKeyCounterHints, type StoredKey } from '../store/keys';
import { forgetOrgCounterHints } from '../store/org-sessions';
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

/** Forgets the entries `affected` picks, each as a key write would (its counters' hints with it). */
function forgetSessionsWhere(affected: (entry: CachedSession) => boolean): void {
  for (const hash of sessionCache.deleteWhere(affected)) forgetKeyCounterHints(hash);
}

/**
 * Policies were written or deleted: the entries of the keys that name any of them, whose
 * effective sessions were built from them (a key naming a policy that was missing gets it now).
 */
export function forgetPolicySessions(ids: readonly string[]): void {
  forgetSessionsWhere((e) => policyIdsOf(e.session).some((id) => ids.includes(id)));
}

/**
 * An organisation's session was written: the entries of its keys, which hold it, and what this
 * process remembered of its counter (a reset leaves it unspent).
 */
export function forgetOrgSessions(orgId: string): void {
  forgetSessionsWhere((e) => e.session.org_id === orgId);
  forgetOrgCounterHints(orgId);
}
