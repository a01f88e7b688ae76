/**
 * What an organisation's offboarding finds to delete next, step by step (shared/schemas/offboarding.ts
 * OFFBOARDING_STEPS). Each call answers at most one transaction's worth: items read consistently
 * from their own partitions (or confirmed by a consistent read when an index listed them), each
 * object's own listed item after everything found through it, so a run stopped between two
 * transactions finds the rest again. Keys come from their owner modules' builders.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { countByEntity, daysBefore, firstChunk, monthsSince, type Found } from '../domain/offboarding';
import { PreconditionFailed } from '../errors';
import type { OffboardingStep } from '../schemas/offboarding';
import { apiUsagePartition } from './api-usage';
import { apiKeys, loadApi, removeApiItems } from './apis';
import { auditOfOrg } from './audit-log';
import { ddb, tableName } from './db/client';
import { batchGet } from './db/items';
import type { StorageKey } from './db/storage-key';
import { deleteOp, transactWrite, type TxItem } from './db/transactions';
import { budgetKeys } from './delivery-budget';
import { domainKeys } from './domain-grants';
import { deliveryKeys } from './hook-deliveries';
import { hookKeys } from './hooks';
import { activityKeys } from './key-activity';
import { keyKeys } from './keys';
import { oauthKeys } from './oauth-clients';
import { RunMoved, runMove } from './offboarding';
import { orgLimitPartitions } from './org-limits';
import { orgKeys, orgUncounted } from './organisations';
import { policiesOfOrg } from './policies';
import { routingVersionMove } from './routing-version';
import { assetKeys } from './assets';
import { figuresOfOrg, markOf } from './usage-figures';
import { TALLY_KEPT_DAYS, tallyPartition } from './usage-tallies';
import { userKeys } from './users';
import { developerKeys } from './developers';
import { requestKeys } from './key-requests';
import { portalKeys } from './portal';
import { KEY_REQUEST_STATES } from '../schemas/value-lists';

/** Items one transaction deletes (the run's own move and a few side writes fill the rest of DynamoDB's 100). */
const CHUNK_ITEMS = 90;

/** What one transaction of the run does. */
export interface Deletion {
  /** Items deleted on the condition that they are still stored, counted by entity. */
  found: Found[];
  /** Writes of their own (an API's delete with its claims), and what they delete by entity. */
  writes?: TxItem[];
  counted?: Record<string, number>;
  /** Where the step goes on from next time (an index into its list of partitions). */
  cursor?: number;
}

/** Nothing left of the step: undefined. Listed by an index that has not caught up yet: 'wait'. */
export type Next = Deletion | 'wait' | undefined;

export interface SweepContext {
  orgId: string;
  /** When the organisation was created (its usage months start there). */
  createdAt: string;
  cursor: number;
  nowMs: number;
}

const found = (i: Record<string, unknown>): Found => ({ PK: String(i.PK), SK: String(i.SK), entity: String(i.entity ?? 'unknown') });
const keyOf = (i: Record<string, unknown>): StorageKey => ({ PK: String(i.PK), SK: String(i.SK) });

/** Up to `limit` items of one partition, in key order (a consistent read). */
async function itemsOf(partition: string, limit = CHUNK_ITEMS): Promise<Found[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: 'PK, SK, entity',
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(found);
}

/** Up to `limit` items an index partition of GSI1 lists (whole items: the indexes project every attribute). */
async function listed(indexPartition: string, limit: number): Promise<Record<string, unknown>[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': indexPartition },
      Limit: limit,
    }),
  );
  return (out.Items ?? []) as Record<string, unknown>[];
}

/** Those of `keys` that are stored now (a consistent read: an index may still list what is gone). */
async function stillStored(keys: readonly StorageKey[]): Promise<Found[]> {
  if (!keys.length) return [];
  const items = await batchGet([...keys], true, ['PK', 'SK', 'entity']);
  // In the order asked (BatchGetItem keeps none), so each object's listed item stays last.
  const byKey = new Map(items.map((i) => [`${String(i.PK)}\n${String(i.SK)}`, found(i)]));
  return keys.flatMap((k) => byKey.get(`${k.PK}\n${k.SK}`) ?? []);
}

/** Entities the usage consumer keeps a stream position for (usage-figures.ts markOf). */
const MARKED = new Set(['live_quota', 'live_quota_shard', 'usage_refusals']);

/** The items with the positions kept for those of them that are counted, each position before its item. */
async function withMarks(items: readonly Found[]): Promise<Found[]> {
  const marked = items.filter((i) => MARKED.has(i.entity));
  if (!marked.length) return [...items];
  const marks = await stillStored(marked.map(markOf));
  return [...marks, ...items];
}

/** Objects an index lists, each with what is stored under it: the first transaction's worth, or 'wait'/undefined. */
async function sweepListed(indexPartition: string, batch: number, objectOf: (row: Record<string, unknown>) => Promise<Found[] | undefined>): Promise<Next> {
  const rows = await listed(indexPartition, batch);
  if (!rows.length) return undefined;
  const objects = (await Promise.all(rows.map(objectOf))).filter((o): o is Found[] => !!o && o.length > 0);
  if (!objects.length) return 'wait';
  return { found: firstChunk(objects, CHUNK_ITEMS) };
}

/**
 * An object found through its listed item: while a child partition (`partitions`) holds items, a
 * transaction's worth of them; then its other items (`extra`, when stored) and the listed item.
 */
async function objectWith(listedKey: StorageKey, partitions: readonly string[], extra: readonly StorageKey[] = []): Promise<Found[] | undefined> {
  const [self] = await stillStored([listedKey]);
  if (!self) return undefined;
  for (const p of partitions) {
    const children = await itemsOf(p);
    if (children.length) return children;
  }
  return [...(await stillStored(extra)), self];
}

async function apis(c: SweepContext): Promise<Next> {
  const rows = await listed(apiKeys.ofOrg(c.orgId), 10);
  if (!rows.length) return undefined;
  for (const row of rows) {
    const apiId = String(row.api_id);
    // Side by side: the API, its hourly usage, its OAuth clients.
    const [api, usage, clientRows] = await Promise.all([
      loadApi(apiId),
      itemsOf(apiUsagePartition(c.orgId, apiId)),
      listed(oauthKeys.ofApi(apiId), CHUNK_ITEMS),
    ]);
    if (!api || api.org_id !== c.orgId) continue;
    if (usage.length) return { found: usage };
    const clients = clientRows.length ? await stillStored(clientRows.map(keyOf)) : [];
    if (clients.length) return { found: clients };
    // The API's own delete: its parts, its database id, its listen-path claims and host counts, the
    // routing version. Without the deletion record an audited delete writes for the trail: the
    // organisation keeps none, and its run is the record.
    const writes = removeApiItems(api).map(({ alongside: _trail, ...w }) => w);
    const deletes = writes.flatMap((w) => (w.op.Delete ? [w.op.Delete.Key as StorageKey] : []));
    return { found: [], writes, counted: countByEntity(await stillStored(deletes)) };
  }
  return 'wait';
}

async function keys(c: SweepContext): Promise<Next> {
  return sweepListed(keyKeys.ofOrg(c.orgId), 20, async (row) => {
    const hash = String(row.PK).slice(keyKeys.partition('').length);
    const [activity, own] = await Promise.all([itemsOf(activityKeys.partition(hash)), itemsOf(keyKeys.partition(hash))]);
    if (activity.length) return activity;
    const head = own.find((i) => i.SK === keyKeys.key(hash).SK);
    const counters = own.filter((i) => i !== head);
    if (!head || own.length >= CHUNK_ITEMS / 2) return withMarks(counters.slice(0, CHUNK_ITEMS / 2));
    const username = typeof row.username === 'string' ? [keyKeys.username(c.orgId, row.username)] : [];
    return [...(await withMarks(counters)), ...(await stillStored(username)), head];
  });
}

const policies = (c: SweepContext): Promise<Next> => sweepListed(policiesOfOrg(c.orgId), CHUNK_ITEMS, async (row) => stillStored([keyOf(row)]));

async function hooks(c: SweepContext): Promise<Next> {
  const next = await sweepListed(hookKeys.ofOrg(c.orgId), 10, (row) => objectWith(keyOf(row), [deliveryKeys.partition(c.orgId, String(row.id))]));
  if (next !== undefined) return next;
  const budget = await stillStored([budgetKeys.inFlight(c.orgId)]);
  return budget.length ? { found: budget } : undefined;
}

const assets = (c: SweepContext): Promise<Next> =>
  sweepListed(assetKeys.ofOrg(c.orgId), 40, (row) => objectWith(keyOf(row), [], typeof row.id === 'string' ? [assetKeys.customId(c.orgId, row.id)] : []));

const users = (c: SweepContext): Promise<Next> =>
  sweepListed(userKeys.ofOrg(c.orgId), 30, (row) =>
    objectWith(
      keyOf(row),
      [],
      [
        ...(typeof row.access_key_hash === 'string' ? [userKeys.accessKey(row.access_key_hash)] : []),
        ...(typeof row.email_lower === 'string' ? [userKeys.email(c.orgId, row.email_lower)] : []),
      ],
    ),
  );

/**
 * The developer portal: key requests (by state), developers with their e-mail's claim, sessions and
 * invitations, then the settings and catalogue. The developers' keys went with the keys step.
 */
async function portal(c: SweepContext): Promise<Next> {
  for (const state of KEY_REQUEST_STATES) {
    const next = await sweepListed(requestKeys.ofOrg(c.orgId, state), CHUNK_ITEMS, async (row) => stillStored([keyOf(row)]));
    if (next !== undefined) return next;
  }
  const developers = await sweepListed(developerKeys.ofOrg(c.orgId), 40, (row) =>
    objectWith(keyOf(row), [], typeof row.email_lower === 'string' ? [developerKeys.email(c.orgId, row.email_lower)] : []),
  );
  if (developers !== undefined) return developers;
  const tokens = await sweepListed(developerKeys.tokensOfOrg(c.orgId), CHUNK_ITEMS, async (row) => stillStored([keyOf(row)]));
  if (tokens !== undefined) return tokens;
  const own = await itemsOf(portalKeys.partition(c.orgId));
  return own.length ? { found: own } : undefined;
}

async function domains(c: SweepContext): Promise<Next> {
  const next = await sweepListed(domainKeys.ofOrg(c.orgId), CHUNK_ITEMS, async (row) => stillStored([keyOf(row)]));
  // Requests to a revoked domain stop matching once gateways follow the routing version.
  return next && next !== 'wait' ? { ...next, writes: [routingVersionMove()] } : next;
}

/** The usage partitions an organisation may have rows under, oldest first: figures, refusal tallies, limit windows. */
function usagePartitions(c: SweepContext): string[] {
  const { dayPartitions } = figuresOfOrg(c.orgId, monthsSince(c.createdAt, c.nowMs));
  return [...dayPartitions, ...daysBefore(c.nowMs, TALLY_KEPT_DAYS + 1).map((d) => tallyPartition(c.orgId, d)), ...orgLimitPartitions(c.orgId)];
}

async function usage(c: SweepContext): Promise<Next> {
  const partitions = usagePartitions(c);
  for (let i = c.cursor; i < partitions.length; i++) {
    const rows = await itemsOf(partitions[i]!, CHUNK_ITEMS / 2);
    if (rows.length) return { found: await withMarks(rows), cursor: i };
  }
  const months = await stillStored(figuresOfOrg(c.orgId, monthsSince(c.createdAt, c.nowMs)).monthItems);
  return months.length ? { found: months.slice(0, CHUNK_ITEMS), cursor: partitions.length } : undefined;
}

const audit = (c: SweepContext): Promise<Next> => sweepListed(auditOfOrg(c.orgId), CHUNK_ITEMS, async (row) => stillStored([keyOf(row)]));

/** Last: the organisation's own partition (its item, counts, organisation key and quota), its item after the rest. */
async function organisation(c: SweepContext): Promise<Next> {
  const items = await itemsOf(orgKeys.partition(c.orgId));
  if (!items.length) return undefined;
  const org = orgKeys.org(c.orgId);
  const self = items.find((i) => i.SK === org.SK);
  const rest = items.filter((i) => i !== self);
  if (rest.length || !self) return { found: await withMarks(rest) };
  return { found: [self], writes: [orgUncounted()] };
}

export const SWEEPS: Record<OffboardingStep, (c: SweepContext) => Promise<Next>> = {
  apis,
  keys,
  policies,
  hooks,
  assets,
  users,
  portal,
  domains,
  usage,
  audit,
  organisation,
};

/** Another writer got there first (an item is gone, a version moved, the run moved): read again. */
class LostRace extends Error {}

/**
 * One transaction of the run read at `seq`: the deletion's items (each only if still stored), its
 * own writes, and the run's move with what they deleted. False when it lost a race and wrote
 * nothing: the caller reads the run again.
 */
export async function applyDeletion(orgId: string, seq: number, d: Deletion): Promise<boolean> {
  const deleted = { ...countByEntity(d.found) };
  for (const [entity, n] of Object.entries(d.counted ?? {})) deleted[entity] = (deleted[entity] ?? 0) + n;
  try {
    await transactWrite([
      ...d.found.map((f) => ({ op: deleteOp({ PK: f.PK, SK: f.SK }, 'attribute_exists(PK)'), onConditionFail: () => new LostRace() })),
      ...(d.writes ?? []),
      runMove(orgId, seq, { deleted, ...(d.cursor !== undefined ? { cursor: d.cursor } : {}) }),
    ]);
    return true;
  } catch (e) {
    if (e instanceof LostRace || e instanceof RunMoved || e instanceof PreconditionFailed || e instanceof TransactionCanceledException) return false;
    throw e;
  }
}
