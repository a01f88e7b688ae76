/**
 * Organisations: the organisation item, and the item counts kept in its partition (one per kind
 * of object the organisation lists: users, APIs, webhooks, assets, keys, policies), which drive
 * `pages` (contract §5). Every count moves in the same transaction as the write it counts.
 */
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { pageCount, pagesSeen, type PageRequest } from '../domain/paging';
import { IdTaken, Unprocessable, type AppError } from '../errors';
import type { Organisation, OrgLimitOverrides } from '../schemas/organisations';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { getItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type StoredAttrs, type TxItem } from './db/transactions';
import { guardVersion } from './db/versioned-write';

/** The kinds of object an organisation counts. */
export type CountedKind = 'USER' | 'API' | 'HOOK' | 'ASSET' | 'KEY' | 'POLICY';

export const orgKeys = {
  /** The organisation's partition: its item, its counts, and its session (org-sessions.ts). */
  partition: (orgId: string) => `ORG#${orgId}`,
  org: (orgId: string): StorageKey => ({ PK: orgKeys.partition(orgId), SK: 'ORG' }),
  /** Maintained item count of one kind in an organisation. */
  counter: (orgId: string, kind: CountedKind): StorageKey => ({ PK: orgKeys.partition(orgId), SK: `COUNT#${kind}` }),
  /** GSI1 partition of every organisation, in creation order (the installation's list). */
  all: 'ORGS',
  /** How many organisations the list holds, moved in the transaction that indexes one. */
  count: (): StorageKey => ({ PK: 'ORGS', SK: 'COUNT' }),
};

/** What a search matches: the id and the owner's name, lower-cased; stored beside the organisation, never shown. */
export const ORG_SEARCH_ATTR = 'search_lower';
const searchText = (o: Pick<Organisation, 'id' | 'owner_name'>) => `${o.id}\n${o.owner_name ?? ''}`.toLowerCase();

const orgIndexes = (o: Pick<Organisation, 'id' | 'created_at'>) => ({ GSI1PK: orgKeys.all, GSI1SK: timeSortKey(o.created_at, o.id) });

const orgs = defineEntity<Organisation, [orgId: string]>({
  name: 'org',
  key: orgKeys.org,
  ids: (o) => [o.id],
  audited: true,
  indexes: orgIndexes,
  privateAttrs: [ORG_SEARCH_ATTR],
});
defineEntity({ name: 'org_count', key: orgKeys.count });

/** The ADD of the installation's organisation count. */
const orgCountChange = (delta: number): TxItem => ({
  op: {
    Update: {
      TableName: tableName(),
      Key: orgKeys.count(),
      UpdateExpression: 'ADD #n :d SET entity = :e',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':d': delta, ':e': 'org_count' },
    },
  },
});
/** The installation's count losing an organisation: in the transaction that deletes its item (offboarding). */
export const orgUncounted = (): TxItem => orgCountChange(-1);

// Changed only by the ADDs below.
defineEntity({ name: 'counter', key: orgKeys.counter });

/**
 * Stores a new organisation; a taken id is 409 (a conditional Put, no read first). Its policy count
 * starts with it, marked exact: every policy it will hold is counted (store/policies.ts), unlike
 * those of an organisation made before policies were counted (store/policy-counts.ts).
 */
export async function insertOrganisation(org: Organisation): Promise<void> {
  await writeItems([
    ...restoredOrgItems(org),
    { op: { Put: { TableName: tableName(), Item: { ...orgKeys.counter(org.id, 'POLICY'), entity: 'counter', n: 0, [EXACT]: true } } } },
  ]);
}

/** Replaces an organisation read at `version` (guarded by it), its search text with it. */
export async function saveOrganisation(org: Organisation, version: number): Promise<void> {
  await writeItems([guardVersion(orgs.put(org, { extra: { [ORG_SEARCH_ATTR]: searchText(org) } }), version)]);
}

/** What the organisation's every request depends on: whether it is active (contract §9), and its own limits. */
export interface OrgStanding {
  active: boolean;
  limits: OrgLimitOverrides;
}

/** An organisation's standing; one that is not stored is active with the installation's limits. */
export async function loadOrgStanding(orgId: string): Promise<OrgStanding> {
  const out = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: orgKeys.org(orgId), ProjectionExpression: 'active, #l', ExpressionAttributeNames: { '#l': 'limits' } }),
  );
  return { active: out.Item?.active !== false, limits: (out.Item?.limits as OrgLimitOverrides | undefined) ?? {} };
}

/** Whether an organisation exists (a consistent read of its item). */
export async function organisationExists(orgId: string): Promise<boolean> {
  return (await orgs.getItem(orgId)) !== undefined;
}

/** Marks a count as holding every item of its kind (one that was not kept from the start is not). */
export const EXACT = 'exact';

/** The organisation item's mark of an offboarding (store/offboarding.ts): every write for it is refused from then on. */
export const OFFBOARDING_SINCE = 'offboarding_since';

const offboardingRefused = (orgId: string) => new Unprocessable(`organisation ${orgId} is being offboarded`);

/** A condition on the organisation item in a write's own transaction; `refused` names why it failed from the item as it was. */
function orgCondition(orgId: string, condition: string, values: Record<string, unknown> | undefined, refused: (old?: StoredAttrs) => AppError): TxItem {
  return {
    op: {
      ConditionCheck: {
        TableName: tableName(),
        Key: orgKeys.org(orgId),
        ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(#off) AND ${condition}`,
        ExpressionAttributeNames: { '#off': OFFBOARDING_SINCE },
        ...(values ? { ExpressionAttributeValues: values } : {}),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    onConditionFail: (old) => (old?.[OFFBOARDING_SINCE] ? offboardingRefused(orgId) : refused(old)),
  };
}

/**
 * Condition of a write that needs the organisation to exist; `missing` is its error otherwise. One
 * being offboarded is 422: nothing new is stored for it once its offboarding started.
 */
export const orgExists = (orgId: string, missing: () => AppError): TxItem => orgCondition(orgId, 'attribute_exists(SK)', undefined, () => missing());

/**
 * The condition of a write that names an organisation (contract §3): 422 when it does not
 * exist, checked in the write's own transaction, so nothing is stored for it and a later
 * organisation created with that id inherits nothing.
 */
export const orgMustExist = (orgId: string): TxItem => orgExists(orgId, () => new Unprocessable(`organisation ${orgId} does not exist`));

/**
 * The condition of a gateway write for an organisation's objects (APIs, keys, policies): 422 when
 * it does not exist, or when it is suspended (`active: false`, contract §9), checked in the write's
 * own transaction like orgMustExist.
 */
export const orgMustBeActive = (orgId: string): TxItem =>
  orgCondition(
    orgId,
    '(attribute_not_exists(active) OR active = :on)',
    { ':on': true },
    (old) => new Unprocessable(old ? `organisation ${orgId} is suspended` : `organisation ${orgId} does not exist`),
  );

/** The ADD that keeps an organisation's count of `kind` exact, inside the same transaction. */
export function countChange(orgId: string, kind: CountedKind, delta: number, exact = false): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: orgKeys.counter(orgId, kind),
        UpdateExpression: `ADD #n :d SET entity = :e${exact ? ', #x = :x' : ''}`,
        ExpressionAttributeNames: { '#n': 'n', ...(exact ? { '#x': EXACT } : {}) },
        ExpressionAttributeValues: { ':d': delta, ':e': 'counter', ...(exact ? { ':x': true } : {}) },
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

/** One organisation as stored, or undefined. */
export function loadOrganisation(orgId: string): Promise<Organisation | undefined> {
  return orgs.get(orgId);
}

const listQuery: ListQuery = { index: 'GSI1', partition: orgKeys.all, forward: true };

/**
 * A page of the installation's organisations in creation order; with `term`, those whose id or
 * owner_name contains it, ignoring case (no count follows a search: pages is the pages seen).
 */
export async function loadOrganisationPage(req: PageRequest, term?: string) {
  if (term) {
    const q: ListQuery = { ...listQuery, filter: { expression: 'contains(#s, :q)', names: { '#s': ORG_SEARCH_ATTR }, values: { ':q': term.toLowerCase() } } };
    const page = await listPage(q, req);
    return { pages: pagesSeen(page.extent, req), organisations: page.items.map((i) => orgs.fromItem(i)), next_cursor: page.nextCursor };
  }
  const [page, count] = await Promise.all([listPage(listQuery, req), getItem(orgKeys.count(), true)]);
  const total = typeof count?.n === 'number' ? count.n : 0;
  return { pages: pageCount(total, req), organisations: page.items.map((i) => orgs.fromItem(i)), next_cursor: page.nextCursor };
}

/**
 * Every stored organisation item matching `filter` (beside `entity = org`), with the attributes of
 * `projection`: what the migrations read (store/policy-counts.ts, the list's index below). A Scan,
 * consistent: an operator's command and `npm start` run them; no function may Scan.
 */
export async function scanStoredOrganisations(projection: string, filter?: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: filter ? `entity = :org AND (${filter})` : 'entity = :org',
        ProjectionExpression: projection,
        ExpressionAttributeValues: { ':org': 'org' },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Listed meanwhile (another run) or deleted: nothing to do for this organisation. */
class AlreadyListed extends Error {}

/**
 * Indexes the organisations a release without the list stored (and counts them), so
 * GET /admin/organisations lists every one. Safe to run again: an organisation already indexed is
 * left as it is, and counted once.
 */
export async function saveMissingOrganisationIndexes(): Promise<number> {
  let indexed = 0;
  for (const item of await scanStoredOrganisations('id, owner_name, created_at', 'attribute_not_exists(GSI1PK)')) {
    const o = item as Pick<Organisation, 'id' | 'owner_name' | 'created_at'>;
    const keys = orgIndexes(o);
    try {
      await writeItems([
        {
          op: {
            Update: {
              TableName: tableName(),
              Key: orgKeys.org(o.id),
              UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, #s = :s',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(GSI1PK)',
              ExpressionAttributeNames: { '#s': ORG_SEARCH_ATTR },
              ExpressionAttributeValues: { ':pk': keys.GSI1PK, ':sk': keys.GSI1SK, ':s': searchText(o) },
            },
          },
          onConditionFail: () => new AlreadyListed(),
        },
        orgCountChange(1),
      ]);
      indexed++;
    } catch (e) {
      if (!(e instanceof AlreadyListed)) throw e;
    }
  }
  return indexed;
}

/**
 * The writes that start an organisation's import: the organisation (409 when its id is taken),
 * counted in the installation's list.
 */
export const restoredOrgItems = (org: Organisation): TxItem[] => [
  orgs.insert(org, { extra: { [ORG_SEARCH_ATTR]: searchText(org) }, taken: () => new IdTaken('organisation id') }),
  orgCountChange(1),
];

/**
 * The organisation's counts as an import wrote them, each exact: the import's last write, once. An
 * ADD, so an object created for the organisation while a background import ran (its own ADD) stays counted.
 */
export const countItems = (orgId: string, counts: Record<CountedKind, number>): TxItem[] =>
  Object.entries(counts).map(([kind, n]) => countChange(orgId, kind as CountedKind, n, true));
