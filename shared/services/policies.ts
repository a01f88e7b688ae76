/**
 * Policies (gateway writes, admin import): the server-owned `_id` and stamps, and the body id that
 * must be the path's. A policy shapes every key that applies it, so each write clears this
 * process's session cache of the data-plane check.
 */
import { NotFound } from '../errors';
import { newDbId } from '../domain/hashing';
import type { IfMatch } from '../domain/if-match';
import { assertBodyIdIsPathId } from '../domain/path-ids';
import type { Policy } from '../schemas/policies';
import { writeVersioned } from '../store/db/versioned-write';
import { insertPolicy, loadPolicies, loadPolicy, putPolicies, removePolicy, savePolicy, type PolicyRecord, type StoredPolicy } from '../store/policies';
import { forgetSessions } from './session-cache';

/** Creates a policy under the client's id; a taken id is 409. */
export async function createPolicy(policy: Policy): Promise<StoredPolicy> {
  const now = new Date().toISOString();
  const created = await insertPolicy({ ...policy, _id: newDbId(), date_created: now, last_updated: now, version: 1 });
  forgetSessions();
  return created;
}

/** A policy and its version; 404 when unknown. */
export async function getPolicy(id: string): Promise<{ policy: StoredPolicy; version: number }> {
  const found = await loadPolicy(id);
  if (!found) throw new NotFound(`policy ${id} not found`);
  const { version, ...policy } = found;
  return { policy, version };
}

/**
 * Full replacement of the policy in the path (`_id` and `date_created` kept); 400 when the body
 * names another id, 404 unknown, 412 stale If-Match.
 */
export async function replacePolicy(policyId: string, policy: Policy, ifMatch: IfMatch | undefined): Promise<number> {
  assertBodyIdIsPathId('policy', policyId, policy.id, 'body.id');
  const version = await writeVersioned({
    what: `policy ${policyId}`,
    ifMatch,
    read: () => loadPolicy(policyId),
    notFound: () => new NotFound(`policy ${policyId} not found`),
    write: async (current) => {
      const next: PolicyRecord = { ...policy, _id: current._id, date_created: current.date_created, last_updated: new Date().toISOString(), version: current.version + 1 };
      await savePolicy(next, current);
      return next.version;
    },
  });
  forgetSessions();
  return version;
}

/** Deletes a policy: keys naming it stop receiving what it granted. */
export async function deletePolicy(id: string, ifMatch: IfMatch | undefined): Promise<void> {
  await removePolicy(id, ifMatch);
  forgetSessions();
}

/**
 * Writes every policy of an import (all validated by the schema before any write) under its own
 * id: an existing one is replaced, keeping its `_id` and creation time; a new one keeps the `_id`
 * it was exported with.
 */
export async function importPolicies(policies: readonly Policy[]): Promise<void> {
  const now = new Date().toISOString();
  const existing = new Map((await loadPolicies(policies.map((p) => p.id))).map((p) => [p.id, p]));
  await putPolicies(
    policies.map((p) => {
      const before = existing.get(p.id);
      return { ...p, _id: before?._id ?? p._id ?? newDbId(), date_created: before?.date_created ?? now, last_updated: now, version: (before?.version ?? 0) + 1 };
    }),
  );
  forgetSessions();
}
