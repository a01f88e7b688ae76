/**
 * Policies: one item per client id, unique across the installation. Ids, stamps and the rules of
 * a change are the service's (shared/services/policies.ts).
 *
 * An organisation's policies are counted (its policy count, contract §5): every write moves the
 * count in its own transaction, and the item names the organisation whose count holds it
 * (`counted_in`), so a write knows what to move even for a policy another write moved to another
 * organisation, and a policy stored before counts were kept (none named) is never taken off a
 * count it was never added to. Writes over a stored policy are guarded on the version and the
 * `counted_in` they read, so two writers never both move the count for one change.
 */
import { Conflict, IdTaken, NotFound } from '../errors';
import type { IfMatch } from '../domain/if-match';
import type { Policy } from '../schemas/policies';
import { pageCount, pagesSeen, type PageRequest } from '../domain/paging';
import { defineEntity } from './db/entity';
import { batchGet, loadListed, stripItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { assertItemFits, MAX_TRANSACTION_BYTES } from './db/item-size';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { guardAbsent, guardVersion, retryWhileMoved, writeVersioned } from './db/versioned-write';
import { countChange, orgMustBeActive, loadExactCount } from './organisations';

/** A policy is stored under the client's id, unique across the installation. */
export const policyKey = (id: string): StorageKey => ({ PK: `POLICY#${id}`, SK: 'POLICY' });
/** GSI1: an organisation's policies by creation time (policies without an organisation are in no list). */
export const policiesOfOrg = (orgId: string) => `ORG#${orgId}#POLICIES`;

export type StoredPolicy = Policy & { _id: string; date_created: string; last_updated: string };
export type PolicyRecord = StoredPolicy & { version: number };

/** The organisation whose policy count holds the policy; absent when none does. Never shown. */
export const COUNTED_IN = 'counted_in';

const policies = defineEntity<PolicyRecord, [id: string]>({
  name: 'policy',
  key: policyKey,
  ids: (p) => [p.id],
  indexes: (p) => (p.org_id ? { GSI1PK: policiesOfOrg(p.org_id), GSI1SK: timeSortKey(p.date_created, p.id) } : {}),
  privateAttrs: [COUNTED_IN],
  versioned: true,
  audited: true,
});

/**
 * A stored policy as a write reads it: its record, and the organisation whose count holds it
 * (kept apart from the record, whose members are the client's).
 */
export interface PolicyState {
  record: PolicyRecord;
  countedIn: string | undefined;
  version: number;
}

const stateOf = (item: Record<string, unknown>): PolicyState => {
  const record = policies.fromItem(item);
  return { record, countedIn: typeof item[COUNTED_IN] === 'string' ? item[COUNTED_IN] : undefined, version: record.version };
};

/**
 * The body keeps unknown members, so a client could otherwise set the TTL (and the policy would
 * vanish), stamps the server owns, or the count it is held in: they are dropped before a policy is stored.
 */
const SERVER_OWNED = ['created_at', 'updated_at', 'expires_at', COUNTED_IN];
const clean = (p: PolicyRecord): PolicyRecord => ({ ...stripItem<PolicyRecord>(p, SERVER_OWNED), version: p.version });

/** The organisation a policy names must exist (422); a policy without one is for gateway writes only. */
const orgChecks = (orgIds: Iterable<string | undefined>): TxItem[] => [...new Set(orgIds)].filter((o): o is string => !!o).map(orgMustBeActive);

/** The write of `p`, counted in its organisation (when it has one). */
const counted = (p: PolicyRecord) => ({ extra: p.org_id ? { [COUNTED_IN]: p.org_id } : {} });

/** The count changes of policies leaving the count of `from` and joining that of `to`: one ADD per organisation whose count moves. */
function countMoves(moves: ReadonlyArray<{ from?: string; to?: string }>): TxItem[] {
  const delta = new Map<string, number>();
  for (const { from, to } of moves) {
    if (from) delta.set(from, (delta.get(from) ?? 0) - 1);
    if (to) delta.set(to, (delta.get(to) ?? 0) + 1);
  }
  return [...delta].filter(([, d]) => d !== 0).map(([orgId, d]) => countChange(orgId, 'POLICY', d));
}

/**
 * `item` (a write over the stored policy) made conditional on the count the policy was read in:
 * a count move computed from a stale read would move the wrong count. Then guarded on the version.
 */
function guardRead(item: TxItem, read: PolicyState): TxItem {
  const condition = read.countedIn === undefined ? `attribute_not_exists(${COUNTED_IN})` : `${COUNTED_IN} = :countedIn`;
  const values = read.countedIn === undefined ? {} : { ':countedIn': read.countedIn };
  const withCount = <O extends { ExpressionAttributeValues?: Record<string, unknown> }>(op: O): O => ({
    ...op,
    ConditionExpression: condition,
    ExpressionAttributeValues: { ...op.ExpressionAttributeValues, ...values },
  });
  const op = item.op.Put ? { Put: withCount(item.op.Put) } : { Delete: withCount(item.op.Delete!) };
  return guardVersion({ ...item, op }, read.version);
}

/** Stores a new policy; a taken id is 409, an unknown organisation 422. Answers it as reads will show it. */
export async function insertPolicy(p: PolicyRecord): Promise<StoredPolicy> {
  const insert = policies.insert(clean(p), { ...counted(p), taken: () => new IdTaken('policy id') });
  await writeItems([...orgChecks([p.org_id]), insert, ...countMoves([{ to: p.org_id }])]);
  const { version: _v, ...stored } = policies.fromItem(insert.op.Put!.Item!);
  return stored;
}

export const loadPolicy = (id: string): Promise<PolicyRecord | undefined> => policies.get(id);

/** The policy as a write reads it (a consistent read), or undefined. */
export async function loadPolicyState(id: string): Promise<PolicyState | undefined> {
  const item = await policies.getItem(id);
  return item ? stateOf(item) : undefined;
}

/** The policies with these ids that exist (any order). */
export async function loadPolicies(ids: readonly string[]): Promise<PolicyRecord[]> {
  return (await loadItems(ids)).map((i) => policies.fromItem(i));
}

async function loadItems(ids: readonly string[]): Promise<Record<string, unknown>[]> {
  if (!ids.length) return [];
  return batchGet(
    [...new Set(ids)].map((id) => policyKey(id)),
    true,
  );
}

/**
 * Writes `next` over the policy read as `previous` (guarded by what was read). A policy moved to
 * another organisation needs it to exist (422), checked in the same transaction, and leaves the
 * count it was in for its new organisation's.
 */
export async function savePolicy(next: PolicyRecord, previous: PolicyState): Promise<void> {
  const checks = next.org_id !== previous.record.org_id ? orgChecks([next.org_id]) : [];
  await writeItems([...checks, guardRead(policies.put(clean(next), counted(next)), previous), ...countMoves([{ from: previous.countedIn, to: next.org_id }])]);
}

/**
 * Deletes a policy (If-Match as for any delete); with `ofOrg`, only that organisation's (404 for
 * another's, as for none). The policy is read first: its delete takes it off the count it is in.
 */
export async function removePolicy(id: string, ifMatch: IfMatch | undefined, ofOrg?: string): Promise<void> {
  await writeVersioned({
    what: `policy ${id}`,
    ifMatch,
    read: async () => {
      const found = await loadPolicyState(id);
      return ofOrg === undefined || found?.record.org_id === ofOrg ? found : undefined;
    },
    notFound: () => new NotFound(`policy ${id} not found`),
    write: (current) => writeItems([guardRead(policies.remove(id), current), ...countMoves([{ from: current.countedIn }])]),
  });
}

/**
 * A page of an organisation's policies, oldest first: one Query on GSI1, `pages` from the
 * organisation's policy count. An organisation made before policies were counted has no exact
 * count until an operator counts what it holds (store/policy-counts.ts); until then `pages` is the
 * pages the read has seen (contract §5), and `counted` says so.
 */
export async function loadOrgPolicyPage(orgId: string, req: PageRequest) {
  const q: ListQuery = { index: 'GSI1', partition: policiesOfOrg(orgId), forward: true };
  const [page, total] = await Promise.all([listPage(q, req), req.mode === 'all' ? Promise.resolve(0) : loadExactCount(orgId, 'POLICY')]);
  const data = page.items.map((i) => {
    const { version: _v, ...p } = policies.fromItem(i);
    return p as StoredPolicy;
  });
  return {
    data,
    pages: total === undefined ? pagesSeen(page.extent, req) : pageCount(total, req),
    counted: total !== undefined,
    ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
  };
}

/** Most items one transaction holds (DynamoDB's limit). */
const MAX_TRANSACTION_ITEMS = 100;

/**
 * Writes imported policies whatever is stored under their ids: `build` makes each one's record
 * from the policy stored under its id (undefined when none). Every policy is sized first, so one
 * too large for DynamoDB is a 413 before anything is written. Then each run of up to 100 items
 * and 4 MB is one transaction (its policies, a check that each organisation they name exists, 422
 * otherwise, and the count moves), so an import that fits one is all-or-nothing even on a storage
 * failure. Each write is guarded on what was read; a run that lost a race with another writer is
 * read and built again (409 when it keeps losing, as for any write).
 */
export async function putPolicies<P extends { id: string }>(
  input: readonly P[],
  build: (p: P, stored: PolicyRecord | undefined) => PolicyRecord,
): Promise<void> {
  const firstRead = new Map((await loadItems(input.map((p) => p.id))).map((i) => [String(i.id), stateOf(i)]));
  const sized = input.map((p) => {
    const state = firstRead.get(p.id);
    const record = build(p, state?.record);
    return { p, state, orgs: [state?.countedIn, record.org_id], size: assertItemFits(policies.put(clean(record), counted(record)).op.Put!.Item!) };
  });
  // A run's transaction holds its policies, an existence check per organisation they name, and a
  // count move per organisation whose count changes: at most two items per organisation.
  const itemsOf = (run: typeof sized) => run.length + 2 * new Set(run.flatMap((i) => i.orgs).filter(Boolean)).size;
  const runs: Array<typeof sized> = [];
  let run: typeof sized = [];
  let bytes = 0;
  for (const it of sized) {
    if (run.length && (itemsOf([...run, it]) > MAX_TRANSACTION_ITEMS || bytes + it.size > MAX_TRANSACTION_BYTES)) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(it);
    bytes += it.size;
  }
  if (run.length) runs.push(run);
  for (const r of runs) await writeRun(r, build);
}

async function writeRun<P extends { id: string }>(
  run: ReadonlyArray<{ p: P; state: PolicyState | undefined }>,
  build: (p: P, stored: PolicyRecord | undefined) => PolicyRecord,
): Promise<void> {
  let states = new Map(run.map((i) => [i.p.id, i.state]));
  let attempt = 0;
  await retryWhileMoved('an imported policy', undefined, async () => {
    if (attempt++ > 0) states = new Map((await loadItems(run.map((i) => i.p.id))).map((i) => [String(i.id), stateOf(i)]));
    const writes = run.map(({ p }) => {
      const state = states.get(p.id);
      const record = build(p, state?.record);
      const put = policies.put(clean(record), counted(record));
      return { write: state ? guardRead(put, state) : guardAbsent(put), move: { from: state?.countedIn, to: record.org_id }, org: record.org_id };
    });
    const tx = [...orgChecks(writes.map((w) => w.org)), ...writes.map((w) => w.write), ...countMoves(writes.map((w) => w.move))];
    // Read again, the policies may name more organisations than the run was sized for.
    if (tx.length > MAX_TRANSACTION_ITEMS) throw new Conflict('policies of the import kept changing while it was being written; try again');
    await writeItems(tx);
  });
}

/** Every policy of an organisation, as stored (an export). */
export async function loadOrgPolicies(orgId: string): Promise<PolicyRecord[]> {
  return (await loadListed(policiesOfOrg(orgId))).map((i) => policies.fromItem(i));
}

/** The write of a policy carried by an import, counted in its organisation (whose count the import sets once). */
export const restoredPolicyItem = (p: PolicyRecord): TxItem =>
  policies.insert(clean({ ...p, version: 1 }), { ...counted(p), taken: () => new IdTaken('policy id') });
