/**
 * Organisations: the organisation item, and the item counts kept in its partition (one per kind
 * of object the organisation lists: users, APIs, webhooks, assets, keys, policies), which drive
 * `pages` (contract §5). Every count moves in the same transaction as the write it counts.
 */
import { IdTaken, Unprocessable, type AppError } from '../errors';
import type { Organisation } from '../schemas/organisations';
import { tableName } from './db/client';
import { defineEntity } from './db/entity';
import { getItem } from './db/items';
import type { StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';

/** The kinds of object an organisation counts. */
export type CountedKind = 'USER' | 'API' | 'HOOK' | 'ASSET' | 'KEY' | 'POLICY';

export const orgKeys = {
  /** The organisation's partition: its item, its counts, and its session (org-sessions.ts). */
  partition: (orgId: string) => `ORG#${orgId}`,
  org: (orgId: string): StorageKey => ({ PK: orgKeys.partition(orgId), SK: 'ORG' }),
  /** Maintained item count of one kind in an organisation. */
  counter: (orgId: string, kind: CountedKind): StorageKey => ({ PK: orgKeys.partition(orgId), SK: `COUNT#${kind}` }),
};

const orgs = defineEntity<Organisation, [orgId: string]>({ name: 'org', key: orgKeys.org, ids: (o) => [o.id], audited: true });
// Changed only by the ADDs below.
defineEntity({ name: 'counter', key: orgKeys.counter });

/**
 * Stores a new organisation; a taken id is 409 (a conditional Put, no read first). Its policy count
 * starts with it, marked exact: every policy it will hold is counted (store/policies.ts), unlike
 * those of an organisation made before policies were counted (store/policy-counts.ts).
 */
export async function insertOrganisation(org: Organisation): Promise<void> {
  await writeItems([
    orgs.insert(org, { taken: () => new IdTaken('organisation id') }),
    { op: { Put: { TableName: tableName(), Item: { ...orgKeys.counter(org.id, 'POLICY'), entity: 'counter', n: 0, [EXACT]: true } } } },
  ]);
}

/** Whether an organisation exists (a consistent read of its item). */
export async function organisationExists(orgId: string): Promise<boolean> {
  return (await orgs.getItem(orgId)) !== undefined;
}

/** Marks a count as holding every item of its kind (one that was not kept from the start is not). */
export const EXACT = 'exact';

/** Condition of a write that needs the organisation to exist; `missing` is its error otherwise. */
export const orgExists = (orgId: string, missing: () => AppError): TxItem => orgs.mustExist(missing, orgId);

/**
 * The condition of a write that names an organisation (contract §3): 422 when it does not
 * exist, checked in the write's own transaction, so nothing is stored for it and a later
 * organisation created with that id inherits nothing.
 */
export const orgMustExist = (orgId: string): TxItem => orgExists(orgId, () => new Unprocessable(`organisation ${orgId} does not exist`));

/** The ADD that keeps an organisation's count of `kind` exact, inside the same transaction. */
export function countChange(orgId: string, kind: CountedKind, delta: number): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: orgKeys.counter(orgId, kind),
        UpdateExpression: 'ADD #n :d SET entity = :e',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':d': delta, ':e': 'counter' },
      },
    },
  };
}

/**
 * The count's +1 only while it is below `max`: a limit on how many objects of `kind` an
 * organisation holds, exact under any concurrency because the count moves in the create's own
 * transaction. `refused` is the error when the organisation is at its limit.
 */
export function countUpWithin(orgId: string, kind: CountedKind, max: number, refused: () => AppError): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: orgKeys.counter(orgId, kind),
        UpdateExpression: 'ADD #n :d SET entity = :e',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':d': 1, ':e': 'counter', ':max': max },
      },
    },
    onConditionFail: refused,
  };
}

/** An organisation's count of `kind` (0 when it has none of that kind yet). */
export async function loadCount(orgId: string, kind: CountedKind): Promise<number> {
  const item = await getItem(orgKeys.counter(orgId, kind), true);
  return typeof item?.n === 'number' ? item.n : 0;
}

/** An organisation's count of `kind` when it is marked exact (see EXACT), else undefined. */
export async function loadExactCount(orgId: string, kind: CountedKind): Promise<number | undefined> {
  const item = await getItem(orgKeys.counter(orgId, kind), true);
  return item?.[EXACT] === true && typeof item.n === 'number' ? item.n : undefined;
}
