import { Conflict, Unprocessable } from '../http/errors';
import { newDbId, randomHex, sha256Hex } from '../domain/hashing';
import { hashPassword } from '../domain/passwords';
import { pageCount, type PageRequest } from '../domain/paging';
import type { User, UserCreate } from '../schemas/users';
import { tableName } from './client';
import { getItem, readCounter, stripItem } from './items';
import { keys, timeSortKey } from './keys';
import { orgExistsCheck } from './organisations';
import { countMatching, listPage, type ListQuery } from './paging';
import { counterAdd, transactWrite } from './transact';

/** Attributes that never leave the store. */
const PRIVATE = ['password_hash', 'access_key_hash', 'email_lower'] as const;

export interface AccessKeyOwner {
  user_id: string;
  org_id: string;
  active: boolean;
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
  };
  const counter = keys.counter(input.org_id, 'USER');
  await transactWrite([
    { op: orgExistsCheck(input.org_id), onConditionFail: () => new Unprocessable(`organisation ${input.org_id} does not exist`) },
    {
      op: {
        Put: {
          TableName: table,
          Item: { ...keys.userEmail(input.org_id, emailLower), entity: 'unique', user_id: id },
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
            ...keys.user(id),
            entity: 'user',
            GSI1PK: keys.usersOfOrg(input.org_id),
            GSI1SK: timeSortKey(now, id),
            ...user,
            email_lower: emailLower,
            access_key_hash: accessKeyHash,
            ...(password ? { password_hash: await hashPassword(password) } : {}),
            version: 1,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
    {
      op: {
        Put: {
          TableName: table,
          // The owner's org and active flag are copied here so a dashboard request costs one GetItem.
          Item: { ...keys.accessKey(accessKeyHash), entity: 'access_key', user_id: id, org_id: input.org_id, active: user.active },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    },
    counterAdd(counter, 1, table),
  ]);
  return { user, accessKey };
}

export async function findAccessKeyOwner(clearKey: string): Promise<AccessKeyOwner | undefined> {
  const item = await getItem(keys.accessKey(sha256Hex(clearKey)));
  if (!item) return undefined;
  return { user_id: String(item.user_id), org_id: String(item.org_id), active: item.active === true };
}

const usersQuery = (orgId: string): ListQuery => ({ index: 'GSI1', partition: keys.usersOfOrg(orgId), forward: true });

export async function listUsers(orgId: string, req: PageRequest) {
  const [page, total] = await Promise.all([listPage(usersQuery(orgId), req), readCounter(keys.counter(orgId, 'USER'))]);
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

export async function getUser(id: string): Promise<User | undefined> {
  const item = await getItem(keys.user(id));
  return item ? stripItem<User>(item, PRIVATE) : undefined;
}
