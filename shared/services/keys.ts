/**
 * Gateway keys and the organisation-wide session: the steps every key form shares (references
 * exist, password hashed, live quota reset), the dashboard's tenancy rules, and the session
 * cache of the check, cleared on every write that changes what a check enforces.
 */
import { NotFound, Unprocessable } from '../errors';
import { callerOrg } from '../domain/caller-org';
import type { IfMatch } from '../domain/if-match';
import { keyHash, newKeyId } from '../domain/key-ids';
import { apiIdsOf, candidateHashes, policyIdsOf, quotaScopes, requireGrant, shownSession, splitPassword, type KeyLookup } from '../domain/key-rules';
import { hashPassword } from '../domain/passwords';
import { applyPolicies } from '../domain/policies';
import { nowSeconds, renewsAt } from '../domain/quota';
import type { KeySession } from '../schemas/keys';
import { writeVersioned } from '../store/db/versioned-write';
import { keyListRow } from '../domain/key-listing';
import { pageRequest } from '../domain/paging';
import type { PageQuery } from '../schemas/common';
import { hashOfUsername, insertKey, loadKey, loadOrgKeyPage, removeKey, rollKey, saveKey, type KeyItem, type StoredKey } from '../store/keys';
import type { TxItem } from '../store/db/transactions';
import { putOrgSession } from '../store/org-sessions';
import { loadPolicies, type StoredPolicy } from '../store/policies';
import { orgApiSummary } from './org-apis';
import { missingApis, resolvePolicies } from './references';
import { effectiveSession, forgetKeySession, forgetOrgSessions } from './session-cache';

/** Any key form: the dashboard's lets meta_data be any JSON value. */
type SessionInput = Omit<KeySession, 'meta_data'> & { meta_data?: unknown };

/**
 * Every API and policy a session names must exist (422, naming the missing ones). Answers the
 * policies, which the caller needs for the effective session. With `withinOrg` (dashboard
 * writes) an API or policy of another organisation, or a policy without one, counts as missing:
 * the answer is then byte for byte the one for an id that exists nowhere.
 */
async function loadReferences(session: KeySession, withinOrg?: string): Promise<StoredPolicy[]> {
  const policyIds = policyIdsOf(session);
  const [unknownApis, policies] = await Promise.all([missingApis(apiIdsOf(session.access_rights), withinOrg), resolvePolicies(policyIds, withinOrg)]);
  if (unknownApis.length) throw new Unprocessable(`unknown API: ${unknownApis.join(', ')}`);
  if (policies.missing.length) throw new Unprocessable(`unknown policy: ${policies.missing.join(', ')}`);
  // Keep apply_policies order: later policies are merged after earlier ones.
  return policyIds.map((id) => policies.found.find((p) => p.id === id)!);
}

/**
 * Creates a key for `orgId` ('' = a key the service does not prefix); answers the clear key once
 * and the session as reads show it. A named organisation is checked in the same transaction
 * (422 when absent).
 */
async function issueKey(
  input: SessionInput,
  orgId: string,
  withinOrg?: string,
  extra: (hash: string) => TxItem[] = () => [],
): Promise<{ key: string; hash: string; shown: StoredKey }> {
  const typed = input as KeySession;
  requireGrant(typed);
  const policies = await loadReferences(typed, withinOrg);
  const key = newKeyId(orgId);
  const hash = keyHash(key);
  const stamp = new Date().toISOString();
  const { session, password, username } = splitPassword(typed);
  const stored: StoredKey = { ...session, org_id: orgId, key_hash: hash, date_created: stamp, last_updated: stamp };
  const effective = applyPolicies(stored, policies);
  const now = nowSeconds();
  await insertKey(
    { session: stored, ...(password ? { basic_auth_hash: await hashPassword(password) } : {}), ...(username ? { username } : {}) },
    quotaScopes(effective),
    now,
    extra(hash),
  );
  // The live quota as the create left it: fresh, its window starting now.
  return { key, hash, shown: shownSession(effective, { used: 0, renews: renewsAt(now, effective.quota_renewal_rate) }, effective.quota_max, now) };
}

/** POST /gw/keys/create: a key of the body's organisation (422 when it does not exist; none: an unprefixed key). */
export function createGatewayKey(input: SessionInput & { org_id?: string }): Promise<{ key: string; hash: string }> {
  return issueKey(input, input.org_id ?? '');
}

/** POST /admin/org/keys: a key of the organisation in org_id (422 when it does not exist). */
export async function createKeyForOrganisation(input: SessionInput & { org_id: string }) {
  const { key, hash, shown } = await issueKey(input, input.org_id);
  return { api_model: {}, key_id: key, data: shown, key_hash: hash };
}

/**
 * Replaces a key's session with `input`; `org_id`, `key_hash` and `date_created` are kept, and a
 * password left out for the same user keeps its hash. Every API and policy it names must be of
 * the key's organisation (422 as for one that does not exist). Resets the live quota unless
 * `reset` is false. `hash` makes a new password's scrypt hash once, whatever the attempts.
 */
async function replaceKeySession(
  current: KeyItem,
  input: SessionInput,
  reset: boolean,
  hash: (password: string) => Promise<string>,
): Promise<{ item: KeyItem; effective: StoredKey }> {
  const typed = input as KeySession;
  requireGrant(typed);
  const policies = await loadReferences(typed, current.session.org_id);
  const { session, password, username } = splitPassword(typed);
  const old = current.session;
  const stored: StoredKey = {
    ...session,
    org_id: old.org_id,
    key_hash: old.key_hash,
    date_created: old.date_created,
    last_updated: new Date().toISOString(),
  };
  const keepHash = !password && username === current.username ? current.basic_auth_hash : undefined;
  const basicAuthHash = password ? await hash(password) : keepHash;
  const effective = applyPolicies(stored, policies);
  const now = nowSeconds();
  const next = {
    session: stored,
    version: current.version + 1,
    ...(basicAuthHash ? { basic_auth_hash: basicAuthHash } : {}),
    ...(username ? { username } : {}),
  };
  await saveKey(next, current, quotaScopes(effective), reset, now);
  forgetKeySession(old.key_hash);
  // The live quota as the write left it: fresh after a reset, else as it was (made if missing).
  const live = reset || !current.live ? { used: 0, renews: renewsAt(now, effective.quota_renewal_rate) } : current.live;
  return { item: { ...next, live }, effective };
}

/**
 * PUT /api/apis/{apiID}/keys/{keyRef}: the API (id or api_id) and the key must be the caller's
 * organisation's, and the key must grant the API; otherwise 404. 412 on a stale If-Match.
 */
export async function replaceOrgKeyOfApi(
  orgId: string,
  params: { apiID: string; keyRef: string },
  query: KeyLookup & { suppress_reset?: boolean },
  input: SessionInput,
  ifMatch: IfMatch | undefined,
) {
  const api = await orgApiSummary(orgId, params.apiID);
  if (!api) throw new NotFound(`API ${params.apiID} not found`);
  let hashed: Promise<string> | undefined;
  const hashOnce = (password: string) => (hashed ??= hashPassword(password));
  const { item, effective } = await writeVersioned({
    what: 'the key',
    ifMatch,
    read: async () => {
      const current = await findOrgKey(orgId, params.keyRef, query);
      if (!(await effectiveSession(current.session)).access_rights?.[api.api_id]) throw new NotFound(`the key does not grant API ${params.apiID}`);
      return current;
    },
    notFound: () => new NotFound('key not found'),
    write: (current) => replaceKeySession(current, input, !query.suppress_reset, hashOnce),
  });
  const data = await showKey(item, effective);
  return { result: { api_model: {}, key_id: params.keyRef, data, key_hash: item.session.key_hash }, version: item.version };
}

/** The stored key a path id names (the key or its hash, as `q` says); 404 when none. */
async function findKey(keyId: string, q: Omit<KeyLookup, 'username'>): Promise<KeyItem> {
  return firstKey(candidateHashes(keyId, q));
}

/**
 * A key of `orgId` named by a path id: key, hash, or basic-auth user name (looked up within the
 * organisation); a key of another organisation is 404 like an unknown one.
 */
async function findOrgKey(orgId: string, keyId: string, q: KeyLookup): Promise<KeyItem> {
  const hashes = q.username ? [await hashOfUsername(orgId, keyId)].filter((h): h is string => !!h) : candidateHashes(keyId, q);
  const item = await firstKey(hashes);
  if (item.session.org_id !== orgId) throw new NotFound('key not found');
  return item;
}

async function firstKey(hashes: string[]): Promise<KeyItem> {
  for (const hash of hashes) {
    const item = await loadKey(hash);
    if (item) return item;
  }
  throw new NotFound('key not found');
}

/**
 * The session as reads and write answers show it (contract §6): the effective session, the key
 * under its policies as the check enforces it, with the live figures of its key-wide quota
 * counted against the effective quota. The stored key keeps its own values.
 */
async function showKey(item: KeyItem, effective?: StoredKey): Promise<StoredKey> {
  effective ??= await effectiveSession(item.session);
  return shownSession(effective, item.live, effective.quota_max, nowSeconds());
}

/** GET /gw/keys/{keyRef}: the effective session with its live quota, and its version. */
export async function getKey(keyId: string, q: Omit<KeyLookup, 'username'>): Promise<{ session: StoredKey; version: number }> {
  const item = await findKey(keyId, q);
  return { session: await showKey(item), version: item.version };
}

/** DELETE /gw/keys/{keyRef}: the key, its live quotas and its user-name marker go together; answers its hash. */
export async function deleteKey(keyId: string, q: Omit<KeyLookup, 'username'>): Promise<string> {
  const { session } = await findKey(keyId, q);
  await writeVersioned({
    what: 'the key',
    ifMatch: undefined,
    read: () => loadKey(session.key_hash),
    notFound: () => new NotFound('key not found'),
    write: (k) => removeKey(k),
  });
  forgetKeySession(session.key_hash);
  return session.key_hash;
}

/** PUT /gw/org/keys/{orgID}: the organisation-wide session (404 unknown organisation); `reset` restarts its quota. */
export async function setOrganisationSession(orgId: string, session: KeySession, reset: boolean): Promise<void> {
  const now = nowSeconds();
  await putOrgSession({ session: { ...session, org_id: orgId }, last_updated: new Date(now * 1000).toISOString() }, reset, now);
  forgetOrgSessions(orgId);
}

// --- the dashboard's keys, by hash (self-service) ----------------------------------------------

/** A key of `orgId` by its hash, or undefined (another organisation's is undefined like an unknown one). */
async function orgKeyByHash(orgId: string, hash: string): Promise<KeyItem | undefined> {
  const item = await loadKey(hash);
  return item?.session.org_id === orgId ? item : undefined;
}

const keyNotFound = () => new NotFound('key not found');

/**
 * POST /api/keys: a key of the caller's organisation (an org_id in the body must be the caller's,
 * else 400); every API and policy it names must be the organisation's (422 as for a missing one).
 */
export async function createOrgKey(orgId: string, input: SessionInput & { org_id?: string }) {
  callerOrg(input.org_id, orgId, 'body.org_id');
  const { org_id: _o, ...session } = input;
  const { key, hash, shown } = await issueKey(session, orgId, orgId);
  return { api_model: {}, key_id: key, key_hash: hash, data: shown };
}

/** GET /api/keys/{keyHash} (the hash): the effective session with its live quota, and its version; 404 unless the caller's. */
export async function getOrgKey(orgId: string, hash: string) {
  const item = await orgKeyByHash(orgId, hash);
  if (!item) throw keyNotFound();
  return { result: { api_model: {}, key_hash: hash, data: await showKey(item) }, version: item.version };
}

/**
 * PUT /api/keys/{keyHash} (the hash): replaces the session of a key of the caller's organisation
 * (server-owned fields kept); the live quota is reset only with `reset`. 404 unless the caller's,
 * 412 on a stale If-Match, 422 for an API or policy that is not the organisation's.
 */
export async function replaceOrgKey(orgId: string, hash: string, input: SessionInput, reset: boolean, ifMatch: IfMatch | undefined) {
  let hashed: Promise<string> | undefined;
  const hashOnce = (password: string) => (hashed ??= hashPassword(password));
  const { item, effective } = await writeVersioned({
    what: 'the key',
    ifMatch,
    read: () => orgKeyByHash(orgId, hash),
    notFound: keyNotFound,
    write: (current) => replaceKeySession(current, input, reset, hashOnce),
  });
  return { result: { api_model: {}, key_hash: hash, data: await showKey(item, effective) }, version: item.version };
}

/** DELETE /api/keys/{keyHash} (the hash): a key of the caller's organisation with its live quotas; 404 unless the caller's, 412 stale If-Match. */
export async function deleteOrgKey(orgId: string, hash: string, ifMatch: IfMatch | undefined): Promise<void> {
  await writeVersioned({ what: 'the key', ifMatch, read: () => orgKeyByHash(orgId, hash), notFound: keyNotFound, write: (k) => removeKey(k) });
  forgetKeySession(hash);
}

/**
 * GET /api/keys: a page of the organisation's keys, newest first, by hash: APIs and quota as the
 * check enforces them (the policies of the whole page read at once), with the live quota.
 */
export async function listOrgKeys(orgId: string, query: PageQuery) {
  const page = await loadOrgKeyPage(orgId, pageRequest(query));
  const policies = await loadPolicies([...new Set(page.keys.flatMap((k) => policyIdsOf(k.session)))]);
  const now = nowSeconds();
  const keys = page.keys.map((k) => {
    const ids = policyIdsOf(k.session);
    const effective = applyPolicies(
      k.session,
      ids.flatMap((id) => policies.filter((p) => p.id === id)),
    );
    return keyListRow(k.session, shownSession(effective, k.live, effective.quota_max, now));
  });
  return { keys, pages: page.pages, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) };
}

// --- keys a portal issues (shared/services/key-requests.ts) ----------------------------------------

/** A key of the organisation made in one transaction with `extra` (the key request that issues it, by the new key's hash). */
export async function issueOrgKeyWith(orgId: string, input: SessionInput, extra: (hash: string) => TxItem[]) {
  const { key, hash } = await issueKey(input, orgId, orgId, extra);
  return { key, hash };
}

/**
 * A key of the organisation replaced by a new secret with the same session, in one transaction
 * with `extra` (by the new hash). The old key is refused at once in this process and everywhere
 * within CACHE_SECONDS; 404 unless the organisation's.
 */
export async function rollOrgKey(orgId: string, hash: string, extra: (hash: string) => TxItem[]) {
  const current = await orgKeyByHash(orgId, hash);
  if (!current) throw keyNotFound();
  const key = newKeyId(orgId);
  const nextHash = keyHash(key);
  const stamp = new Date().toISOString();
  const session: StoredKey = { ...current.session, key_hash: nextHash, date_created: stamp, last_updated: stamp };
  const effective = applyPolicies(session, await loadReferences(session, orgId));
  await rollKey({ session }, quotaScopes(effective), nowSeconds(), current, extra(nextHash));
  forgetKeySession(hash);
  return { key, hash: nextHash };
}

/** A key of the organisation deleted in one transaction with `extra`; 404 unless the organisation's. */
export async function revokeOrgKey(orgId: string, hash: string, extra: TxItem[]): Promise<void> {
  const current = await orgKeyByHash(orgId, hash);
  if (!current) throw keyNotFound();
  await removeKey(current, extra);
  forgetKeySession(hash);
}
