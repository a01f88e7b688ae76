/**
 * Dashboard users (admin writes, dashboard reads): ids, stamps, the password's scrypt hash and the
 * access key, issued here and stored only as its SHA-256. A change to a user or its access key
 * clears this process's credential cache, so a deactivation or a revoked key is refused here at
 * once (and everywhere within CACHE_SECONDS).
 */
import { NotFound } from '../errors';
import { newDbId, randomHex, sha256Hex } from '../lib/hashing';
import type { IfMatch } from '../domain/if-match';
import { pageRequest } from '../domain/paging';
import { levelOn } from '../domain/permissions';
import { PERMISSION_GROUPS } from '../schemas/permissions';
import { hashPassword } from '../domain/passwords';
import type { PageQuery } from '../schemas/common';
import type { User, UserCreate, UserUpdate } from '../schemas/users';
import { writeVersioned } from '../store/db/versioned-write';
import { insertUser, loadUser, loadUserPage, saveUser, loadUserSearchPage, shownUser, type UserRecord } from '../store/users';
import { forgetAccessKeys } from './credentials';

/** A new dashboard access key: answered once, stored as its hash. */
const newAccessKey = () => randomHex(16);

/** Creates a user with its access key, answered this once; 422 unknown organisation, 409 e-mail taken. */
export async function createUser(input: UserCreate): Promise<{ user: User; accessKey: string }> {
  const now = new Date().toISOString();
  const accessKey = newAccessKey();
  const { password, ...fields } = input;
  const user: User = {
    id: newDbId(),
    org_id: input.org_id,
    email_address: fields.email_address,
    first_name: fields.first_name,
    last_name: fields.last_name,
    user_permissions: fields.user_permissions,
    active: fields.active,
    api_model: {},
    group_id: fields.group_id ?? '',
    created_at: now,
    ...(password ? { password_updated: now } : {}),
    ...(fields.password_max_days !== undefined ? { password_max_days: fields.password_max_days } : {}),
    version: 1,
  };
  await insertUser({
    ...user,
    email_lower: input.email_address.toLowerCase(),
    access_key_hash: sha256Hex(accessKey),
    ...(password ? { password_hash: await hashPassword(password) } : {}),
  });
  return { user, accessKey };
}

export function listOrgUsers(orgId: string, query: PageQuery) {
  return loadUserPage(orgId, pageRequest(query));
}

export function searchOrgUsers(orgId: string, query: PageQuery & { q: string }) {
  return loadUserSearchPage(orgId, query.q, pageRequest(query));
}

/** A change of one user on the version it was read at (shared/store/db/versioned-write.ts). */
function writeUser<R>(id: string, ifMatch: IfMatch | undefined, change: (current: UserRecord) => Promise<R>): Promise<R> {
  return writeVersioned({ what: `user ${id}`, ifMatch, read: () => loadUser(id), notFound: () => new NotFound(`user ${id} not found`), write: change });
}

/**
 * Replaces a user's editable fields; 404 unknown, 409 e-mail taken, 412 stale If-Match. The access
 * key's copies of `active` and `user_permissions` follow, so a deactivated user's key is refused,
 * and changed permissions apply, from the next table read. An omitted password keeps the stored hash,
 * omitted permissions the stored ones (contract §9: `{}` would grant every group).
 */
export async function replaceUser(id: string, input: UserUpdate, ifMatch: IfMatch | undefined): Promise<{ user: User; version: number }> {
  // Hashing is slow on purpose (scrypt): once, before the change that may be tried again.
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const out = await writeUser(id, ifMatch, async (current) => {
    const { password_max_days: maxDays, group_id: groupId } = input;
    const { password_max_days: _kept, ...rest } = current;
    const next: UserRecord = {
      ...rest,
      email_address: input.email_address,
      email_lower: input.email_address.toLowerCase(),
      first_name: input.first_name,
      last_name: input.last_name,
      user_permissions: input.user_permissions ?? current.user_permissions,
      active: input.active,
      group_id: groupId ?? '',
      ...(passwordHash ? { password_hash: passwordHash, password_updated: new Date().toISOString() } : {}),
      ...(maxDays !== undefined ? { password_max_days: maxDays } : {}),
      version: current.version + 1,
    };
    await saveUser(next, current);
    return { user: shownUser(next), version: next.version };
  });
  forgetAccessKeys();
  return out;
}

/**
 * Revokes a user's access key and issues a new one, answered this once (the old key's item goes in
 * the same transaction, so exactly one key is valid); 404 unknown user.
 */
export async function rotateUserAccessKey(id: string): Promise<{ user: User; accessKey: string; version: number }> {
  const accessKey = newAccessKey();
  const out = await writeUser(id, undefined, async (current) => {
    const next: UserRecord = { ...current, access_key_hash: sha256Hex(accessKey), version: current.version + 1 };
    await saveUser(next, current);
    return { user: shownUser(next), accessKey, version: next.version };
  });
  forgetAccessKeys();
  return out;
}

/**
 * GET /api/users/me: the caller as a console needs it, with its effective permissions (every
 * group with its level), so it can hide what the user may not use. The credential read found
 * the user active; one that is gone since is 404.
 */
export async function getMe(orgId: string, userId: string) {
  const u = await loadUser(userId);
  if (!u || u.org_id !== orgId) throw new NotFound('user not found');
  const perms = u.user_permissions as Record<string, unknown> | undefined;
  return {
    id: u.id,
    org_id: u.org_id,
    email_address: u.email_address,
    first_name: u.first_name,
    last_name: u.last_name,
    user_permissions: Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, levelOn(perms, g)])),
    active: u.active,
  };
}
