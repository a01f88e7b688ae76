import { Conflict, NotFound, PreconditionFailed } from '../errors';
import { newDbId, randomHex, sha256Hex } from '../domain/hashing';
import { hashPassword } from '../domain/passwords';
import { pageCount, type PageRequest } from '../domain/paging';
import type { User, UserCreate, UserUpdate } from '../schemas/users';
import { tableName } from './db/client';
import { getItem, stripItem } from './db/items';
import { countMatching, listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { transactWrite, type TxItem } from './db/transactions';
import { countChange, orgMustExist, readCount } from './organisations';
import { ifMatchAllows, type IfMatch } from '../domain/if-match';

/** Dashboard users, the uniqueness of their e-mail in the organisation, and their access keys. */
export const userKeys = {
  user: (userId: string): StorageKey => ({ PK: `USER#${userId}`, SK: 'USER' }),
  /** GSI1: an organisation's users in creation order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#USERS`,
  /** Marker that makes an e-mail unique within its organisation (case-insensitive). */
  email: (orgId: string, emailLower: string): StorageKey => ({ PK: `ORG#${orgId}#EMAIL#${emailLower}`, SK: 'UNIQUE' }),
  /** Dashboard access key, by SHA-256 of the clear key. */
  accessKey: (hash: string): StorageKey => ({ PK: `AKEY#${hash}`, SK: 'AKEY' }),
};

/** Attributes that never leave the store. */
const PRIVATE = ['password_hash', 'access_key_hash', 'email_lower'] as const;

export interface AccessKeyOwner {
  user_id: string;
  org_id: string;
  active: boolean;
  /** The user's `user_permissions` as stored (contract §9). */
  permissions: Record<string, unknown>;
}

/**
 * Creates a user and its dashboard access key in one transaction: the organisation must exist
 * (422), the e-mail is unique in it (409), and the organisation's user count moves with it.
 */
export async function createUser(input: UserCreate): Promise<{ user: User; accessKey: string }> {
  const table = tableName();
  const now = new Date().toISOString();
  const id = newDbId();
  const accessKey = randomHex(16);
  const accessKeyHash = sha256Hex(accessKey);
  const emailLower = input.email_address.toLowerCase();
  const { password, ...fields } = input;
  const user: User = {
    id,
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
  await transactWrite([
    orgMustExist(input.org_id),
    {
      op: {
        Put: {
          TableName: table,
          Item: { ...userKeys.email(input.org_id, emailLower), entity: 'unique', user_id: id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFail: () => new Conflict(`a user with e-mail ${input.email_address} already exists in this organisation`),
    },
    {
      op: {
        Put: {
          TableName: table,
          Item: {
            ...userKeys.user(id),
            entity: 'user',
            GSI1PK: userKeys.ofOrg(input.org_id),
            GSI1SK: timeSortKey(now, id),
            ...user,
            email_lower: emailLower,
            access_key_hash: accessKeyHash,
            ...(password ? { password_hash: await hashPassword(password) } : {}),
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
    {
      op: {
        Put: {
          TableName: table,
          // The owner's org, active flag and permissions are copied here so a dashboard request
          // costs one GetItem, its permission check included.
          Item: { ...userKeys.accessKey(accessKeyHash), entity: 'access_key', user_id: id, org_id: input.org_id, active: user.active, user_permissions: user.user_permissions },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
    countChange(input.org_id, 'USER', 1),
  ]);
  return { user, accessKey };
}

/**
 * Who holds a dashboard access key, by its hash: the key item copies the owner's org, active flag
 * and permissions. A key item written before permissions were copied has none: its user's are read
 * (a second GetItem, only for such items).
 */
export async function findAccessKeyOwner(hash: string): Promise<AccessKeyOwner | undefined> {
  const item = await getItem(userKeys.accessKey(hash));
  if (!item) return undefined;
  const owner = { user_id: String(item.user_id), org_id: String(item.org_id), active: item.active === true };
  const copied = permissionsOf(item);
  if (copied) return { ...owner, permissions: copied };
  const user = owner.active ? await getItem(userKeys.user(owner.user_id)) : undefined;
  return { ...owner, permissions: permissionsOf(user) ?? {} };
}

const permissionsOf = (item: Item | undefined): Record<string, unknown> | undefined => {
  const p = item?.user_permissions;
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined;
};

const usersQuery = (orgId: string): ListQuery => ({ index: 'GSI1', partition: userKeys.ofOrg(orgId), forward: true });

export async function listUsers(orgId: string, req: PageRequest) {
  const [page, total] = await Promise.all([listPage(usersQuery(orgId), req), readCount(orgId, 'USER')]);
  return {
    pages: pageCount(total, req),
    users: page.items.map((i) => stripItem<User>(i, PRIVATE)),
    next_cursor: page.nextCursor,
  };
}

/** Case-insensitive substring of the e-mail; the match count is a filtered Query (no counter). */
export async function searchUsers(orgId: string, term: string, req: PageRequest) {
  const q: ListQuery = {
    ...usersQuery(orgId),
    filter: { expression: 'contains(#e, :q)', names: { '#e': 'email_lower' }, values: { ':q': term.toLowerCase() } },
  };
  const [page, total] = await Promise.all([listPage(q, req), countMatching(q)]);
  return {
    pages: pageCount(total, req),
    users: page.items.map((i) => stripItem<User>(i, PRIVATE)),
    next_cursor: page.nextCursor,
  };
}

type Item = Record<string, unknown>;

/** A condition failure on the user item when no If-Match was sent: another writer won; read again. */
class Stale extends PreconditionFailed {}

const userNotFound = (id: string) => new NotFound(`user ${id} not found`);

/** The user's current item (consistent read), with If-Match checked against its version. */
async function currentUser(id: string, ifMatch: IfMatch | undefined): Promise<{ item: Item; version: number }> {
  const item = await getItem(userKeys.user(id), true);
  if (!item) throw userNotFound(id);
  const version = Number(item.version ?? 1);
  if (!ifMatchAllows(ifMatch, version)) throw new PreconditionFailed();
  return { item, version };
}

/** Put of the user item, only over the version that was read. */
const userPut = (item: Item, version: number): TxItem => ({
  op: {
    Put: {
      TableName: tableName(),
      Item: { ...item, version: version + 1 },
      ConditionExpression: 'attribute_exists(PK) AND version = :v',
      ExpressionAttributeValues: { ':v': version },
    },
  },
  onConditionFail: () => new Stale(),
});

/**
 * Retries `attempt` while another writer changes the user between our read and our write,
 * unless If-Match named a version (then that is a 412).
 */
async function changeUser<T>(ifMatch: IfMatch | undefined, attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof Stale) || ifMatch !== undefined) throw e;
    }
  }
}

/**
 * Replaces a user's editable fields (PUT /admin/users/{userID}). The e-mail marker moves in the
 * same transaction when the e-mail changes (409 when taken in the organisation), and the access
 * key item's copies of `active` and `user_permissions` follow, so a deactivated user's key is
 * refused, and changed permissions apply, from the next table read. An omitted password keeps the
 * stored hash.
 */
export async function replaceUser(id: string, input: UserUpdate, ifMatch: IfMatch | undefined): Promise<{ user: User; version: number }> {
  // Hashing is slow on purpose (scrypt): once, outside the retry loop.
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return changeUser(ifMatch, async () => {
    const { item, version } = await currentUser(id, ifMatch);
    const orgId = String(item.org_id);
    const now = new Date().toISOString();
    const oldEmail = String(item.email_lower);
    const emailLower = input.email_address.toLowerCase();
    const { password_max_days: maxDays, group_id: groupId } = input;
    const next: Item = {
      ...item,
      email_address: input.email_address,
      email_lower: emailLower,
      first_name: input.first_name,
      last_name: input.last_name,
      user_permissions: input.user_permissions,
      active: input.active,
      group_id: groupId ?? '',
      ...(passwordHash ? { password_hash: passwordHash, password_updated: now } : {}),
    };
    if (maxDays === undefined) delete next.password_max_days;
    else next.password_max_days = maxDays;
    const table = tableName();
    const tx: TxItem[] = [userPut(next, version)];
    if (emailLower !== oldEmail) {
      tx.push({ op: { Delete: { TableName: table, Key: userKeys.email(orgId, oldEmail) } } });
      tx.push({
        op: {
          Put: {
            TableName: table,
            Item: { ...userKeys.email(orgId, emailLower), entity: 'unique', user_id: id },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        onConditionFail: () => new Conflict(`a user with e-mail ${input.email_address} already exists in this organisation`),
      });
    }
    if (typeof item.access_key_hash === 'string') {
      tx.push({
        op: {
          Update: {
            TableName: table,
            Key: userKeys.accessKey(item.access_key_hash),
            UpdateExpression: 'SET active = :a, user_permissions = :p',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':a': input.active, ':p': input.user_permissions },
          },
        },
        // No mapping: the key item exists whenever the user names it (both change in one
        // transaction), and a rotation meanwhile fails the user's version condition first.
      });
    }
    await transactWrite(tx);
    return { user: stripItem<User>({ ...next, version: version + 1 }, PRIVATE), version: version + 1 };
  });
}

/**
 * Revokes a user's access key and issues a new one (POST /admin/users/{userID}/access-key): the
 * old key's item is deleted and the new one written in the same transaction as the user, so
 * exactly one key is valid at any time. The clear key is answered once, never stored.
 */
export async function rotateAccessKey(id: string): Promise<{ user: User; accessKey: string; version: number }> {
  return changeUser(undefined, async () => {
    const { item, version } = await currentUser(id, undefined);
    const accessKey = randomHex(16);
    const accessKeyHash = sha256Hex(accessKey);
    const next: Item = { ...item, access_key_hash: accessKeyHash };
    const table = tableName();
    const tx: TxItem[] = [
      userPut(next, version),
      {
        op: {
          Put: {
            TableName: table,
            Item: {
              ...userKeys.accessKey(accessKeyHash),
              entity: 'access_key',
              user_id: id,
              org_id: String(item.org_id),
              active: item.active === true,
              user_permissions: permissionsOf(item) ?? {},
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      },
    ];
    if (typeof item.access_key_hash === 'string') tx.push({ op: { Delete: { TableName: table, Key: userKeys.accessKey(item.access_key_hash) } } });
    await transactWrite(tx);
    return { user: stripItem<User>({ ...next, version: version + 1 }, PRIVATE), accessKey, version: version + 1 };
  });
}
