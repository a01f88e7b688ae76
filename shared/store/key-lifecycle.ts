/**
 * Creating and replacing keys: the steps every key form shares (references exist, password
 * hashed, live quota reset), so the handlers stay a few lines.
 */
import { NotFound } from '../errors';
import { keyHash, newKeyId } from '../domain/key-ids';
import { hashPassword } from '../domain/passwords';
import { applyPolicies } from '../domain/policies';
import { nowSeconds, renewsAt } from '../domain/quota';
import { candidateHashes, quotaScopes, requireGrant, shownSession, splitPassword, type KeyLookup } from '../domain/sessions';
import type { KeySession } from '../schemas/keys';
import { createKey, effectiveSession, getKeyItem, hashOfUsername, loadReferences, replaceKey, type KeyItem, type StoredKey } from './gw-keys';

/** Any key form: the dashboard's lets meta_data be any JSON value. */
type SessionInput = Omit<KeySession, 'meta_data'> & { meta_data?: unknown };

/**
 * Creates a key for `orgId` ('' = a key the service does not prefix); answers the clear key once.
 * With `orgMustExist` the organisation is checked in the same transaction (422 when absent).
 */
export async function issueKey(input: SessionInput, orgId: string, orgMustExist = false): Promise<{ key: string; hash: string; session: StoredKey }> {
  const typed = input as KeySession;
  requireGrant(typed);
  const policies = await loadReferences(typed);
  const key = newKeyId(orgId);
  const hash = keyHash(key);
  const stamp = new Date().toISOString();
  const { session, password, username } = splitPassword(typed);
  const stored: StoredKey = { ...session, org_id: orgId, key_hash: hash, date_created: stamp, last_updated: stamp };
  const effective = applyPolicies(stored, policies);
  await createKey(
    { session: stored, ...(password ? { basic_auth_hash: await hashPassword(password) } : {}), ...(username ? { username } : {}) },
    quotaScopes(effective),
    nowSeconds(),
    orgMustExist,
  );
  return { key, hash, session: stored };
}

/**
 * Replaces a key's session with `input` (the dashboard's update); `org_id`, `key_hash` and
 * `date_created` are kept, and a password left out for the same user keeps its hash. Every API
 * and policy it names must be of the key's organisation (422 as for one that does not exist).
 * Resets the live quota unless `reset` is false.
 */
export async function updateKey(current: KeyItem, input: SessionInput, reset: boolean): Promise<{ item: KeyItem; effective: StoredKey }> {
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
  const basicAuthHash = password ? await hashPassword(password) : keepHash;
  const effective = applyPolicies(stored, policies);
  const now = nowSeconds();
  const next = { session: stored, ...(basicAuthHash ? { basic_auth_hash: basicAuthHash } : {}), ...(username ? { username } : {}) };
  const version = await replaceKey(next, current, quotaScopes(effective), reset, now);
  // The live quota as the write left it: fresh after a reset, else as it was (made if missing).
  const live = reset || !current.live ? { used: 0, renews: renewsAt(now, effective.quota_renewal_rate) } : current.live;
  return { item: { ...next, version, live }, effective };
}

/** The stored key a path id names (the key or its hash, as `q` says); 404 when none. */
export async function findKey(keyId: string, q: Omit<KeyLookup, 'username'>): Promise<KeyItem> {
  return firstKey(candidateHashes(keyId, q));
}

/**
 * A key of `orgId` named by a path id: key, hash, or basic-auth user name (looked up within the
 * organisation); a key of another organisation is 404 like an unknown one.
 */
export async function findOwnKey(orgId: string, keyId: string, q: KeyLookup): Promise<KeyItem> {
  const hashes = q.username ? [await hashOfUsername(orgId, keyId)].filter((h): h is string => !!h) : candidateHashes(keyId, q);
  const item = await firstKey(hashes);
  if (item.session.org_id !== orgId) throw new NotFound('key not found');
  return item;
}

async function firstKey(hashes: string[]): Promise<KeyItem> {
  for (const hash of hashes) {
    const item = await getKeyItem(hash);
    if (item) return item;
  }
  throw new NotFound('key not found');
}

/** The session as reads show it, with the live figures of its key-wide quota. */
export async function showKey(item: KeyItem, effective?: StoredKey): Promise<StoredKey> {
  effective ??= await effectiveSession(item.session);
  return shownSession(item.session, item.live, effective.quota_max, nowSeconds());
}
