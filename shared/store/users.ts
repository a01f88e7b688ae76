/**
 * Dashboard users, the uniqueness of their e-mail in the organisation, and their access keys: the
 * items and the transactions that keep them together. Ids, stamps, hashes and the rules of a
 * change are the service's (shared/services/users.ts).
 */
import { Conflict } from '../errors';
import { pageCount, pagesSeen, type PageRequest } from '../domain/paging';
import type { User } from '../schemas/users';
import { defineEntity, defineMarker } from './db/entity';
import { loadListed, stripItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { guardVersion } from './db/versioned-write';
import { countChange, orgMustExist, loadCount } from './organisations';

export const userKeys = {
  user: (userId: string): StorageKey => ({ PK: `USER#${userId}`, SK: 'USER' }),
  /** GSI1: an organisation's users in creation order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#USERS`,
  /** Marker that makes an e-mail unique within its organisation (case-insensitive). */
  email: (orgId: string, emailLower: string): StorageKey => ({ PK: `ORG#${orgId}#EMAIL#${emailLower}`, SK: 'UNIQUE' }),
  /** Dashboard access key, by SHA-256 of the clear key. */
  accessKey: (hash: string): StorageKey => ({ PK: `AKEY#${hash}`, SK: 'AKEY' }),
};

/** A user as stored: what reads show, and what never leaves the store. */
export type UserRecord = User & {
  email_lower: string;
  /** SHA-256 of the user's one valid access key. */
  access_key_hash?: string;
  password_hash?: string;
};

const PRIVATE = ['password_hash', 'access_key_hash', 'email_lower'] as const;

const users = defineEntity<UserRecord, [userId: string]>({
  name: 'user',
  key: userKeys.user,
  ids: (u) => [u.id],
  indexes: (u) => ({ GSI1PK: userKeys.ofOrg(u.org_id), GSI1SK: timeSortKey(u.created_at, u.id) }),
  versioned: true,
  audited: true,
});

const emails = defineMarker({ name: 'user_email', key: userKeys.email });

/**
 * The access key's item copies its owner's org, active flag, permissions and e-mail, so a
 * dashboard request costs one GetItem, its permission check and its audit actor included.
 */
type AccessKeyItem = { user_id: string; org_id: string; active: boolean; user_permissions: Record<string, unknown>; email_address: string };
const accessKeys = defineEntity<AccessKeyItem, [hash: string]>({ name: 'access_key', key: userKeys.accessKey });

/** The user as reads show it. */
export const shownUser = (u: UserRecord): User => stripItem<User>(u, PRIVATE);

const emailTaken = (email: string) => () => new Conflict(`a user with e-mail ${email} already exists in this organisation`);

const accessKeyOf = (u: UserRecord): AccessKeyItem => ({
  user_id: u.id,
  org_id: u.org_id,
  active: u.active === true,
  user_permissions: permissionsOf(u) ?? {},
  email_address: u.email_address,
});

export interface AccessKeyOwner {
  user_id: string;
  org_id: string;
  active: boolean;
  /** The user's `user_permissions` as stored (contract §9). */
  permissions: Record<string, unknown>;
  /** The user's e-mail, for the audit trail (absent on key items written before it was copied). */
  email?: string;
}

/**
 * Stores a new user and its access key in one transaction: the organisation must exist (422), the
 * e-mail is unique in it (409), and the organisation's user count moves with it.
 */
export async function insertUser(user: UserRecord & { access_key_hash: string }): Promise<void> {
  await writeItems([
    orgMustExist(user.org_id),
    ...restoredUserItems(user),
    accessKeys.insert(accessKeyOf(user), { at: [user.access_key_hash] }),
    countChange(user.org_id, 'USER', 1),
  ]);
}

/** The user as stored (consistent read), or undefined. */
export const loadUser = (id: string): Promise<UserRecord | undefined> => users.get(id);

/**
 * Writes `next` over the user read as `previous` (guarded by its version). The e-mail marker moves
 * in the same transaction when the e-mail changes (409 when taken in the organisation); the access
 * key item follows: its copies of `active` and `user_permissions` are updated, or, when the key
 * changed (a rotation), the old key's item is deleted and the new one written, so exactly one key
 * is valid at any time.
 */
export async function saveUser(next: UserRecord, previous: UserRecord): Promise<void> {
  const tx: TxItem[] = [guardVersion(users.put(next), previous.version)];
  if (next.email_lower !== previous.email_lower) {
    tx.push(emails.release(previous.org_id, previous.email_lower));
    tx.push(emails.claim([next.org_id, next.email_lower], { user_id: next.id }, emailTaken(next.email_address)));
  }
  if (next.access_key_hash !== previous.access_key_hash) {
    if (next.access_key_hash) tx.push(accessKeys.insert(accessKeyOf(next), { at: [next.access_key_hash] }));
    if (previous.access_key_hash) tx.push(accessKeys.remove(previous.access_key_hash));
  } else if (next.access_key_hash) {
    // No condition mapping: the key item exists whenever the user names it (both change in one
    // transaction), and a rotation meanwhile fails the user's version guard first.
    tx.push(accessKeys.set([next.access_key_hash], { active: next.active, user_permissions: next.user_permissions, email_address: next.email_address }));
  }
  await writeItems(tx);
}

/**
 * Who holds a dashboard access key, by its hash. A key item written before permissions were
 * copied has none: its user's are read (a second GetItem, only for such items).
 */
export async function loadAccessKeyOwner(hash: string): Promise<AccessKeyOwner | undefined> {
  const item = await accessKeys.getItem(hash);
  if (!item) return undefined;
  const email = typeof item.email_address === 'string' ? { email: item.email_address } : {};
  const owner = { user_id: String(item.user_id), org_id: String(item.org_id), active: item.active === true, ...email };
  const copied = permissionsOf(item);
  if (copied) return { ...owner, permissions: copied };
  const user = owner.active ? await users.getItem(owner.user_id) : undefined;
  return { ...owner, permissions: permissionsOf(user) ?? {} };
}

function permissionsOf(item: object | undefined): Record<string, unknown> | undefined {
  const p = (item as { user_permissions?: unknown } | undefined)?.user_permissions;
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined;
}

const usersQuery = (orgId: string): ListQuery => ({ index: 'GSI1', partition: userKeys.ofOrg(orgId), forward: true });

export async function loadUserPage(orgId: string, req: PageRequest) {
  const [page, total] = await Promise.all([listPage(usersQuery(orgId), req), loadCount(orgId, 'USER')]);
  return { pages: pageCount(total, req), users: page.items.map((i) => users.fromItem(i)).map(shownUser), next_cursor: page.nextCursor };
}

/**
 * Case-insensitive substring of the e-mail. No count can follow a search term, so `pages` is the
 * pages the read has seen (contract §5), never a count of every match.
 */
export async function loadUserSearchPage(orgId: string, term: string, req: PageRequest) {
  const q: ListQuery = {
    ...usersQuery(orgId),
    filter: { expression: 'contains(#e, :q)', names: { '#e': 'email_lower' }, values: { ':q': term.toLowerCase() } },
  };
  const page = await listPage(q, req);
  return { pages: pagesSeen(page.extent, req), users: page.items.map((i) => users.fromItem(i)).map(shownUser), next_cursor: page.nextCursor };
}

/** Every user of an organisation as stored, without its access key's hash (an export: access keys are not carried). */
export async function loadOrgUsers(orgId: string): Promise<UserRecord[]> {
  return (await loadListed(userKeys.ofOrg(orgId))).map((i) => stripItem<UserRecord>(i, ['access_key_hash']));
}

/** The writes of a new user and its e-mail marker (409 when taken); an import's users carry no access key (an admin issues one). */
export const restoredUserItems = (user: UserRecord): TxItem[] => [
  // The user first: an import writes an object's items one by one, and an offboarding finds the e-mail's claim through its user.
  users.insert({ ...user, version: 1 }),
  emails.claim([user.org_id, user.email_lower], { user_id: user.id }, emailTaken(user.email_address)),
];
