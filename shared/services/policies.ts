/**
 * Policies (gateway writes, admin import). A policy shapes every key that applies it, so each
 * write clears this process's session cache of the data-plane check.
 */
import { BadRequest, NotFound } from '../errors';
import type { Policy } from '../schemas/policies';
import * as store from '../store/policies';
import { forgetSessions } from './session-cache';
import type { IfMatch } from '../domain/if-match';

/** Creates a policy under the client's id; a taken id is 409. */
export async function createPolicy(policy: Policy): Promise<store.StoredPolicy> {
  const created = await store.createPolicy(policy);
  forgetSessions();
  return created;
}

/** A policy and its version; 404 when unknown. */
export async function getPolicy(id: string): Promise<{ policy: store.StoredPolicy; version: number }> {
  const found = await store.getPolicy(id);
  if (!found) throw new NotFound(`policy ${id} not found`);
  const { version, ...policy } = found;
  return { policy, version };
}

/** Full replacement of the policy in the path; 400 when the body names another id, 412 stale If-Match. */
export async function replacePolicy(policyId: string, policy: Policy, ifMatch: IfMatch | undefined): Promise<number> {
  if (policy.id !== policyId) {
    throw new BadRequest(`The body names policy ${policy.id} but the path names ${policyId}`, [{ path: 'body.id', message: 'must equal the policy id of the path' }]);
  }
  const version = await store.replacePolicy(policy, ifMatch);
  forgetSessions();
  return version;
}

/** Deletes a policy: keys naming it stop receiving what it granted. */
export async function deletePolicy(id: string, ifMatch: IfMatch | undefined): Promise<void> {
  await store.deletePolicy(id, ifMatch);
  forgetSessions();
}

/** Writes every policy of an import (all validated by the schema before any write); ids kept. */
export async function importPolicies(policies: readonly Policy[]): Promise<void> {
  await store.importPolicies(policies);
  forgetSessions();
}
