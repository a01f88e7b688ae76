/**
 * Policies (gateway writes, admin import): the server-owned `_id` and stamps, and the body id that
 * must be the path's. A policy shapes every key that applies it, so each write clears this
 * process's session cache of the data-plane check.
 */
import { NotFound, Unprocessable } from '../errors';
import { callerOrg } from '../domain/caller-org';
import { apiIdsOf } from '../domain/key-rules';
import { pageRequest } from '../domain/paging';
import type { PageQuery } from '../schemas/common';
import { newDbId } from '../lib/hashing';
import type { IfMatch } from '../domain/if-match';
import { assertBodyIdIsPathId } from '../domain/path-ids';
import type { Policy, PolicyDashboard } from '../schemas/policies';
import { writeVersioned } from '../store/db/versioned-write';
import { logger } from '../observability/logger';
import {
  insertPolicy,
  loadOrgPolicyPage,
  loadPolicy,
  loadPolicyState,
  putPolicies,
  removePolicy,
  savePolicy,
  type PolicyRecord,
  type StoredPolicy,
} from '../store/policies';
import { missingApis } from './references';
import { forgetPolicySessions } from './session-cache';

/** Creates a policy under the client's id; a taken id is 409. */
export async function createPolicy(policy: Policy): Promise<StoredPolicy> {
  const now = new Date().toISOString();
  const created = await insertPolicy({ ...policy, _id: newDbId(), date_created: now, last_updated: now, version: 1 });
  forgetPolicySessions([policy.id]);
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
 * names another id, 404 unknown, 412 stale If-Match. With `withinOrg` (a dashboard write) only
 * that organisation's policy is found, and it stays that organisation's.
 */
export async function replacePolicy(policyId: string, policy: Policy, ifMatch: IfMatch | undefined, withinOrg?: string): Promise<number> {
  assertBodyIdIsPathId('policy', policyId, policy.id, 'body.id');
  const version = await writeVersioned({
    what: `policy ${policyId}`,
    ifMatch,
    read: async () => {
      const found = await loadPolicyState(policyId);
      return withinOrg === undefined || found?.record.org_id === withinOrg ? found : undefined;
    },
    notFound: () => new NotFound(`policy ${policyId} not found`),
    write: async (current) => {
      const next: PolicyRecord = {
        ...policy,
        _id: current.record._id,
        date_created: current.record.date_created,
        last_updated: new Date().toISOString(),
        version: current.version + 1,
      };
      await savePolicy(next, current);
      return next.version;
    },
  });
  forgetPolicySessions([policyId]);
  return version;
}

/** Deletes a policy: keys naming it stop receiving what it granted. */
export async function deletePolicy(id: string, ifMatch: IfMatch | undefined): Promise<void> {
  await removePolicy(id, ifMatch);
  forgetPolicySessions([id]);
}

/**
 * Writes every policy of an import (all validated by the schema before any write) under its own
 * id: an existing one is replaced, keeping its `_id` and creation time; a new one keeps the `_id`
 * it was exported with.
 */
export async function importPolicies(policies: readonly Policy[]): Promise<void> {
  const now = new Date().toISOString();
  await putPolicies(policies, (p, before) => ({
    ...p,
    _id: before?._id ?? p._id ?? newDbId(),
    date_created: before?.date_created ?? now,
    last_updated: now,
    version: (before?.version ?? 0) + 1,
  }));
  forgetPolicySessions(policies.map((p) => p.id));
}

// --- the dashboard's policies (self-service): the caller's organisation's only ------------------

/**
 * A dashboard policy names the caller's organisation (another org_id is 400) and only its APIs in
 * access_rights (another organisation's is 422, as for one that does not exist).
 */
async function ownPolicy(orgId: string, policy: PolicyDashboard, id: string): Promise<Policy> {
  const org_id = callerOrg(policy.org_id, orgId, 'body.org_id');
  const unknown = await missingApis(apiIdsOf(policy.access_rights), orgId);
  if (unknown.length)
    throw new Unprocessable(`unknown API: ${unknown.join(', ')}`, [{ path: 'body.access_rights', message: 'names an API that does not exist' }]);
  return { ...policy, id, org_id };
}

/** POST /api/portal/policies: a policy of the caller's organisation; an absent id gets 24 hex; a taken id is 409. */
export async function createOrgPolicy(orgId: string, policy: PolicyDashboard): Promise<StoredPolicy> {
  return createPolicy(await ownPolicy(orgId, policy, policy.id ?? newDbId()));
}

/** GET /api/portal/policies/{policyID}: a policy of the caller's organisation; 404 for another's, as for none. */
export async function getOrgPolicy(orgId: string, id: string): Promise<{ policy: StoredPolicy; version: number }> {
  const found = await loadPolicy(id);
  if (!found || found.org_id !== orgId) throw new NotFound(`policy ${id} not found`);
  const { version, ...policy } = found;
  return { policy, version };
}

/** PUT /api/portal/policies/{policyID}: replaces a policy of the caller's organisation (as PUT /gw/policies/{policyID}). */
export async function replaceOrgPolicy(orgId: string, id: string, policy: PolicyDashboard, ifMatch: IfMatch | undefined): Promise<number> {
  assertBodyIdIsPathId('policy', id, policy.id, 'body.id');
  // The path's policy first: another organisation's is 404 whatever the body names.
  await getOrgPolicy(orgId, id);
  return replacePolicy(id, await ownPolicy(orgId, policy, id), ifMatch, orgId);
}

/** DELETE /api/portal/policies/{policyID}: a policy of the caller's organisation; 404 for another's, 412 stale If-Match. */
export async function deleteOrgPolicy(orgId: string, id: string, ifMatch: IfMatch | undefined): Promise<void> {
  await removePolicy(id, ifMatch, orgId);
  forgetPolicySessions([id]);
}

/** GET /api/portal/policies: a page of the caller's organisation's policies, oldest first. */
export async function listOrgPolicies(orgId: string, query: PageQuery) {
  const page = await loadOrgPolicyPage(orgId, pageRequest(query));
  if (!page.counted) warnUncounted(orgId);
  return { Data: page.data, Pages: page.pages, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) };
}

const warnedUncounted = new Set<string>();

/** Once per process and organisation: its `pages` of policies stay a lower bound until an operator counts them. */
function warnUncounted(orgId: string): void {
  if (warnedUncounted.has(orgId)) return;
  warnedUncounted.add(orgId);
  logger.warn('policies of this organisation are not counted yet: Pages is the pages seen; run `npm run count-policies`', { org_id: orgId });
}
