/**
 * Developers' key requests and the keys they hold. A request names a plan of a published API; an
 * automatic plan grants it at once, a manual one waits for a user with `portal` write. The key is
 * made when the developer collects it (or at once on an automatic plan), in the same transaction
 * as the request's move, so a request holds at most one key and its clear secret is shown once
 * and never stored. A developer's keys are ordinary keys of the organisation (the plan's policy
 * applied), so the check, the dashboard and the usage figures treat them like every other.
 */
import { Conflict, NotFound } from '../errors';
import { newDbId } from '../lib/hashing';
import { PORTAL_LIMITS } from '../limits';
import { pageRequest } from '../domain/paging';
import { planKeyInput, planOf } from '../domain/portal';
import type { PageQuery } from '../schemas/common';
import type { Developer, KeyRequest } from '../schemas/portal';
import { writeItems } from '../store/db/transactions';
import { openRequestChange } from '../store/developers';
import { keyRequestInsert, keyRequestMove, loadDeveloperKeyRequests, loadKeyRequest, loadOrgKeyRequestPage } from '../store/key-requests';
import { loadCatalogueEntry } from '../store/portal';
import { getOrgKey, issueOrgKeyWith, revokeOrgKey, rollOrgKey } from './keys';
import { keyUsage } from './analytics';
import { openPortal } from './portal';

const requestNotFound = (id: string) => new NotFound(`key request ${id} not found`);
const moved = (id: string) => () => new Conflict(`key request ${id} was changed meanwhile; read it again`);
const tooMany = () => new Conflict(`a developer may hold at most ${PORTAL_LIMITS.openRequestsPerDeveloper} pending or approved requests`);

/**
 * POST /portal/{orgID}/key-requests: a request for a plan of a published API (404 otherwise). On an
 * automatic plan it is approved and its key made at once, and the clear key answered this once.
 */
export async function requestKey(developer: Developer, body: { api_id: string; plan_id: string }) {
  await openPortal(developer.org_id);
  const plan = planOf(await loadCatalogueEntry(developer.org_id, body.api_id), body.api_id, body.plan_id);
  const now = new Date().toISOString();
  const pending: KeyRequest = {
    id: newDbId(),
    org_id: developer.org_id,
    developer_id: developer.id,
    developer_email: developer.email_address,
    api_id: body.api_id,
    plan_id: plan.id,
    state: 'pending',
    created_at: now,
  };
  const open = openRequestChange(developer.id, 1, PORTAL_LIMITS.openRequestsPerDeveloper, tooMany);
  if (plan.approval === 'manual') {
    await writeItems([keyRequestInsert(pending), open]);
    return { request: pending };
  }
  const approved: KeyRequest = { ...pending, state: 'approved', decided_at: now, decided_by: 'auto' };
  const { key, hash } = await issueOrgKeyWith(developer.org_id, planKeyInput(developer, approved, plan), (h) => [
    keyRequestInsert({ ...approved, key_hash: h }),
    open,
  ]);
  return { request: { ...approved, key_hash: hash }, key, key_hash: hash };
}

/** A request of the developer's own (404 for another's, exactly like one that does not exist). */
async function ownRequest(developer: Developer, id: string): Promise<KeyRequest> {
  const r = await loadKeyRequest(id);
  if (r?.developer_id !== developer.id || r.org_id !== developer.org_id) throw requestNotFound(id);
  return r;
}

/** GET /portal/{orgID}/key-requests: the developer's requests, newest first. */
export async function myRequests(developer: Developer) {
  await openPortal(developer.org_id);
  return { requests: await loadDeveloperKeyRequests(developer.id) };
}

/**
 * POST /portal/{orgID}/key-requests/{requestID}/key: the approved request's key, made now and
 * shown this once (409 when the request is not approved, or its key was collected already).
 */
export async function collectKey(developer: Developer, id: string) {
  await openPortal(developer.org_id);
  const r = await ownRequest(developer, id);
  if (r.state !== 'approved') throw new Conflict(`key request ${id} is ${r.state}`);
  if (r.key_hash) throw new Conflict(`the key of request ${id} was shown already; roll it for a new secret`);
  const plan = planOf(await loadCatalogueEntry(r.org_id, r.api_id), r.api_id, r.plan_id);
  const { key, hash } = await issueOrgKeyWith(developer.org_id, planKeyInput(developer, r, plan), (h) => [keyRequestMove(r, { ...r, key_hash: h }, moved(id))]);
  return { request: { ...r, key_hash: hash }, key, key_hash: hash };
}

/** The developer's request holding key `hash` (404 for a key that is not one of theirs). */
async function requestOfKey(developer: Developer, hash: string): Promise<KeyRequest> {
  const r = (await loadDeveloperKeyRequests(developer.id)).find((x) => x.key_hash === hash && x.state === 'approved');
  if (!r) throw new NotFound('key not found');
  return r;
}

/** GET /portal/{orgID}/keys: the developer's keys with their live quota and limits. */
export async function myKeys(developer: Developer) {
  await openPortal(developer.org_id);
  const held = (await loadDeveloperKeyRequests(developer.id)).filter((r) => r.state === 'approved' && r.key_hash);
  const keys = await Promise.all(
    held.map(async (r) => {
      const { data } = (await getOrgKey(developer.org_id, r.key_hash!)).result;
      return {
        key_hash: r.key_hash!,
        request_id: r.id,
        api_id: r.api_id,
        plan_id: r.plan_id,
        alias: data.alias ?? '',
        quota_max: data.quota_max ?? -1,
        quota_remaining: data.quota_remaining ?? data.quota_max ?? -1,
        quota_renews: data.quota_renews ?? 0,
        rate: data.rate ?? 0,
        per: data.per ?? 0,
      };
    }),
  );
  return { keys };
}

/** POST /portal/{orgID}/keys/{keyHash}/roll: a new secret with the same rights, shown this once; the old one stops. */
export async function rollMyKey(developer: Developer, hash: string) {
  await openPortal(developer.org_id);
  const r = await requestOfKey(developer, hash);
  const { key, hash: next } = await rollOrgKey(developer.org_id, hash, (h) => [keyRequestMove(r, { ...r, key_hash: h }, moved(r.id))]);
  return { request: { ...r, key_hash: next }, key, key_hash: next };
}

/** DELETE /portal/{orgID}/keys/{keyHash}: the key is deleted and its request ends revoked. */
export async function revokeMyKey(developer: Developer, hash: string): Promise<KeyRequest> {
  await openPortal(developer.org_id);
  const r = await requestOfKey(developer, hash);
  const revoked: KeyRequest = { ...r, state: 'revoked', decided_at: new Date().toISOString(), decided_by: developer.id };
  await revokeOrgKey(developer.org_id, hash, [keyRequestMove(r, revoked, moved(r.id)), openRequestChange(developer.id, -1, 0, moved(r.id))]);
  return revoked;
}

/** GET /portal/{orgID}/keys/{keyHash}/usage: the key's requests per day over the last `days` days. */
export async function myKeyUsage(developer: Developer, hash: string, days: number) {
  await openPortal(developer.org_id);
  await requestOfKey(developer, hash);
  const end = new Date();
  const start = new Date(end.getTime() - (days - 1) * 86_400_000);
  const params = {
    keyHash: hash,
    startDay: start.getUTCDate(),
    startMonth: start.getUTCMonth() + 1,
    startYear: start.getUTCFullYear(),
    EndDay: end.getUTCDate(),
    EndMonth: end.getUTCMonth() + 1,
    EndYear: end.getUTCFullYear(),
  };
  return keyUsage(developer.org_id, params, 'day');
}

// --- the organisation's users ------------------------------------------------------------------------

export const listKeyRequests = (orgId: string, query: PageQuery & { state: KeyRequest['state'] }) =>
  loadOrgKeyRequestPage(orgId, query.state, pageRequest(query));

/** A pending request of the organisation, or 404 (409 when it was decided already). */
async function pendingRequest(orgId: string, id: string): Promise<KeyRequest> {
  const r = await loadKeyRequest(id);
  if (r?.org_id !== orgId) throw requestNotFound(id);
  if (r.state !== 'pending') throw new Conflict(`key request ${id} is ${r.state}`);
  return r;
}

/** POST /api/portal/key-requests/{requestID}/approve: the developer may now collect the key (shown to them once). */
export async function approveRequest(orgId: string, id: string, userId: string): Promise<KeyRequest> {
  const r = await pendingRequest(orgId, id);
  const next: KeyRequest = { ...r, state: 'approved', decided_at: new Date().toISOString(), decided_by: userId };
  await writeItems([keyRequestMove(r, next, moved(id))]);
  return next;
}

/** POST /api/portal/key-requests/{requestID}/refuse: with a reason the developer reads; the request no longer counts as open. */
export async function refuseRequest(orgId: string, id: string, userId: string, reason: string): Promise<KeyRequest> {
  const r = await pendingRequest(orgId, id);
  const next: KeyRequest = { ...r, state: 'refused', reason, decided_at: new Date().toISOString(), decided_by: userId };
  await writeItems([keyRequestMove(r, next, moved(id)), openRequestChange(r.developer_id, -1, 0, moved(id))]);
  return next;
}
