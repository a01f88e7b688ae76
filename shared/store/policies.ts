/**
 * Policies: one item per client id, unique across the installation. Ids, stamps and the rules of
 * a change are the service's (shared/services/policies.ts).
 */
import { IdTaken, NotFound } from '../errors';
import type { IfMatch } from '../domain/if-match';
import type { Policy } from '../schemas/policies';
import { pageCount, type PageRequest } from '../domain/paging';
import { defineEntity } from './db/entity';
import { batchGet, stripItem } from './db/items';
import { countMatching, listPage, type ListQuery } from './db/paging';
import { assertItemFits, MAX_TRANSACTION_BYTES } from './db/item-size';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type StoredAttrs, type TxItem } from './db/transactions';
import { deleteIfMatch, guardVersion } from './db/versioned-write';
import { orgMustExist } from './organisations';

/** A policy is stored under the client's id, unique across the installation. */
export const policyKey = (id: string): StorageKey => ({ PK: `POLICY#${id}`, SK: 'POLICY' });
/** GSI1: an organisation's policies by creation time (policies without an organisation are in no list). */
const policiesOfOrg = (orgId: string) => `ORG#${orgId}#POLICIES`;

export type StoredPolicy = Policy & { _id: string; date_created: string; last_updated: string };
export type PolicyRecord = StoredPolicy & { version: number };

const policies = defineEntity<PolicyRecord, [id: string]>({
  name: 'policy',
  key: policyKey,
  ids: (p) => [p.id],
  indexes: (p) => (p.org_id ? { GSI1PK: policiesOfOrg(p.org_id), GSI1SK: timeSortKey(p.date_created, p.id) } : {}),
  versioned: true,
  audited: true,
});

/**
 * The body keeps unknown members, so a client could otherwise set the TTL (and the policy would
 * vanish) or stamps the server owns: they are dropped before a policy is stored.
 */
const SERVER_OWNED = ['created_at', 'updated_at', 'expires_at'];
const clean = (p: PolicyRecord): PolicyRecord => ({ ...stripItem<PolicyRecord>(p, SERVER_OWNED), version: p.version });

/** The organisation a policy names must exist (422); a policy without one is for gateway writes only. */
const orgChecks = (orgIds: Iterable<string | undefined>): TxItem[] => [...new Set(orgIds)].filter((o): o is string => !!o).map(orgMustExist);

/** Stores a new policy; a taken id is 409, an unknown organisation 422. Answers it as reads will show it. */
export async function insertPolicy(p: PolicyRecord): Promise<StoredPolicy> {
  const insert = policies.insert(clean(p), { taken: () => new IdTaken('policy id') });
  await writeItems([...orgChecks([p.org_id]), insert]);
  const { version: _v, ...stored } = policies.fromItem(insert.op.Put!.Item!);
  return stored;
}

export const loadPolicy = (id: string): Promise<PolicyRecord | undefined> => policies.get(id);

/** The policies with these ids that exist (any order). */
export async function loadPolicies(ids: readonly string[]): Promise<PolicyRecord[]> {
  if (!ids.length) return [];
  return (
    await batchGet(
      [...new Set(ids)].map((id) => policyKey(id)),
      true,
    )
  ).map((i) => policies.fromItem(i));
}

/**
 * Writes `next` over the policy read as `previous` (guarded by its version). A policy moved to
 * another organisation needs it to exist (422), checked in the same transaction.
 */
export async function savePolicy(next: PolicyRecord, previous: PolicyRecord): Promise<void> {
  const checks = next.org_id !== previous.org_id ? orgChecks([next.org_id]) : [];
  await writeItems([...checks, guardVersion(policies.put(clean(next)), previous.version)]);
}

/** Deletes a policy (If-Match as for any delete); with `ofOrg`, only that organisation's (404 for another's, as for none). */
export async function removePolicy(id: string, ifMatch: IfMatch | undefined, ofOrg?: string): Promise<void> {
  const where =
    ofOrg === undefined ? undefined : { expression: 'org_id = :org', values: { ':org': ofOrg }, holds: (old: StoredAttrs) => old.org_id?.S === ofOrg };
  await deleteIfMatch(policies.remove(id), ifMatch, () => new NotFound(`policy ${id} not found`), where);
}

/**
 * A page of an organisation's policies, oldest first: one Query on GSI1. A policy's organisation
 * moves with gateway writes and the admin import overwrites whatever is stored, so no count
 * could move in the same transaction as every change; the total is a Select COUNT Query of the
 * same index partition (README "Limits").
 */
export async function loadOrgPolicyPage(orgId: string, req: PageRequest) {
  const q: ListQuery = { index: 'GSI1', partition: policiesOfOrg(orgId), forward: true };
  const [page, total] = await Promise.all([listPage(q, req), req.mode === 'all' ? Promise.resolve(0) : countMatching(q)]);
  const data = page.items.map((i) => {
    const { version: _v, ...p } = policies.fromItem(i);
    return p as StoredPolicy;
  });
  return { data, pages: pageCount(total, req), ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
}

/**
 * Writes imported policies whatever is stored under their ids. Every policy is sized first, so one
 * too large for DynamoDB is a 413 before anything is written. Then each run of up to 100 items and
 * 4 MB is one transaction (its policies and a check that each organisation they name exists, 422
 * otherwise), so an import that fits one is all-or-nothing even on a storage failure.
 */
export async function putPolicies(records: readonly PolicyRecord[]): Promise<void> {
  const items = records.map((p) => {
    const put = policies.put(clean(p));
    return { put, org: p.org_id, size: assertItemFits(put.op.Put!.Item!) };
  });
  let run: typeof items = [];
  let bytes = 0;
  const orgsOf = (list: typeof items) => new Set(list.map((i) => i.org).filter((o): o is string => !!o));
  const flush = async () => {
    if (run.length) await writeItems([...orgChecks(orgsOf(run)), ...run.map((i) => i.put)]);
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
