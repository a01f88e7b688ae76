import { Conflict, NotFound } from '../errors';
import { newDbId } from '../domain/hashing';
import type { Policy } from '../schemas/policies';
import { tableName } from './db/client';
import { batchGet, getItem, stripItem } from './db/items';
import { assertItemFits, MAX_TRANSACTION_BYTES } from './db/item-size';
import type { StorageKey } from './db/storage-key';
import { putOp, transactWrite, type TxItem } from './db/transactions';
import { deleteVersioned, replaceVersioned } from './db/versioning';
import { orgMustExist } from './organisations';
import type { IfMatch } from '../domain/if-match';

/** A policy is stored under the client's id, unique across the installation. */
export const policyKey = (id: string): StorageKey => ({ PK: `POLICY#${id}`, SK: 'POLICY' });

export type StoredPolicy = Policy & { _id: string; date_created: string; last_updated: string };

const notFound = (id: string) => () => new NotFound(`policy ${id} not found`);

/** Stamps only the server sets; with the storage keys they are dropped from the (loose) body. */
const SERVER_OWNED = ['version', 'created_at', 'updated_at', 'expires_at'];

/** `keepClientId`: only an import keeps the `_id` a policy was exported with. */
function itemOf(policy: Policy, now: string, previous?: { _id: string; date_created: string }, keepClientId = false) {
  return {
    // The body keeps unknown members, so a client could otherwise set index keys or the TTL.
    ...stripItem<Policy>(policy, SERVER_OWNED),
    ...policyKey(policy.id),
    entity: 'policy',
    // Server-owned: the database id and creation time survive replacement and import.
    _id: previous?._id ?? (keepClientId ? policy._id : undefined) ?? newDbId(),
    date_created: previous?.date_created ?? now,
    last_updated: now,
  };
}

/** The organisation a policy names must exist (422); a policy without one is for gateway writes only. */
const orgChecks = (orgIds: Iterable<string | undefined>): TxItem[] => [...new Set(orgIds)].filter((o): o is string => !!o).map(orgMustExist);

/** Creates a policy under the client's id; a taken id is 409, an unknown organisation 422. */
export async function createPolicy(policy: Policy): Promise<StoredPolicy> {
  const item = { ...itemOf(policy, new Date().toISOString()), version: 1 };
  await transactWrite([
    ...orgChecks([policy.org_id]),
    { op: putOp(item, 'attribute_not_exists(PK)'), onConditionFail: () => new Conflict(`policy ${policy.id} already exists`) },
  ]);
  return stripItem<StoredPolicy>(item, ['version']);
}

export async function getPolicy(id: string): Promise<(StoredPolicy & { version: number }) | undefined> {
  const item = await getItem(policyKey(id), true);
  return item ? stripItem(item) : undefined;
}

/** The policies with these ids that exist (any order). */
export async function getPolicies(ids: readonly string[]): Promise<(StoredPolicy & { version: number })[]> {
  if (!ids.length) return [];
  const items = await batchGet([...new Set(ids)].map((id) => policyKey(id)), true);
  return items.map((i) => stripItem(i));
}

/**
 * Replaces a policy (412 on a stale If-Match); `_id` and `date_created` are kept. A policy moved
 * to another organisation needs it to exist (422), checked in the write's transaction.
 */
export async function replacePolicy(policy: Policy, ifMatch: IfMatch | undefined): Promise<number> {
  const current = await getPolicy(policy.id);
  if (!current) throw notFound(policy.id)();
  const checks = policy.org_id !== current.org_id ? orgChecks([policy.org_id]) : [];
  const version = await replaceVersioned(policyKey(policy.id), itemOf(policy, new Date().toISOString(), current), ifMatch, notFound(policy.id), checks);
  return version;
}

export async function deletePolicy(id: string, ifMatch: IfMatch | undefined): Promise<void> {
  await deleteVersioned(policyKey(id), ifMatch, notFound(id));
}

/**
 * Writes validated policies under their own ids (an existing one is replaced, keeping its `_id`
 * and creation time). Every policy is sized first, so one too large for DynamoDB is a 413 before
 * anything is written. Then each run of up to 100 items and 4 MB is one transaction (its policies
 * and a check that each organisation they name exists, 422 otherwise), so an import that fits one
 * is all-or-nothing even on a storage failure.
 */
export async function importPolicies(policies: readonly Policy[]): Promise<void> {
  const now = new Date().toISOString();
  const existing = new Map((await getPolicies(policies.map((p) => p.id))).map((p) => [p.id, p]));
  const items = policies.map((p) => {
    const before = existing.get(p.id);
    const item = { ...itemOf(p, now, before, true), version: (before?.version ?? 0) + 1 };
    return { item, size: assertItemFits(item) };
  });
  let run: typeof items = [];
  let bytes = 0;
  const orgsOf = (list: typeof items) => new Set(list.map(({ item }) => item.org_id).filter((o): o is string => !!o));
  const flush = async () => {
    if (run.length) await transactWrite([...orgChecks(orgsOf(run)), ...run.map(({ item }) => ({ op: { Put: { TableName: tableName(), Item: item } } }))]);
    run = [];
    bytes = 0;
  };
  for (const it of items) {
    if (run.length + orgsOf([...run, it]).size >= 100 || bytes + it.size > MAX_TRANSACTION_BYTES) await flush();
    run.push(it);
    bytes += it.size;
  }
  await flush();
}
