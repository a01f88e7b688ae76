/**
 * API definitions: the main item (indexed for the three sort orders of an organisation's list),
 * the compressed document parts that did not fit in it (same partition: one Query reads all),
 * the database-id marker, and (listen-claims.ts) the listen claim of contract §13. Versions and
 * the delete of an API's OAuth clients are assembled by shared/services/apis.ts from the
 * transaction items this module answers.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, IdTaken, PayloadTooLarge, ResponseTooLarge, type AppError } from '../errors';
import { decodeParts, encodeParts } from './db/stored-parts';
import { pageCount, type PageRequest } from '../domain/paging';
import { LIMITS } from '../limits';
import { ddb, tableName } from './db/client';
import { defineEntity, defineMarker } from './db/entity';
import { batchGet, queryAll } from './db/items';
import { listPage } from './db/paging';
import { textSortKey, timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { guardVersion } from './db/versioned-write';
import { countChange, orgMustBeActive, loadCount } from './organisations';
import { CLAIM_ATTEMPTS, ClaimsMoved, claimItems, releaseItems } from './listen-claims';
import { routingVersionMove } from './routing-version';
import type { ApiRecord } from '../domain/api-records';

export type { ApiRecord };

export const apiKeys = {
  main: (apiId: string): StorageKey => ({ PK: `API#${apiId}`, SK: 'API' }),
  part: (apiId: string, n: number): StorageKey => ({ PK: `API#${apiId}`, SK: `PART#${String(n).padStart(4, '0')}` }),
  partition: (apiId: string) => `API#${apiId}`,
  /** Database id (24 hex) -> api_id. */
  byDbId: (id: string): StorageKey => ({ PK: `APIDB#${id}`, SK: 'APIDB' }),
  /** GSI1 (created), GSI2 (name), GSI3 (updated): an organisation's APIs in each sort order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#APIS`,
};

type Json = Record<string, unknown>;

/** Compressed document parts up to this size; the first part rides in the main item. */
const PART_BYTES = 300_000;

/**
 * A write is one TransactWriteItems, whose payload DynamoDB caps at 4 MiB. Ordinary OpenAPI JSON
 * of 5 MB compresses far below this; only near-random text does not, and it gets a 413 here
 * instead of the store's 500. The margin covers the other items of the transaction.
 */
const MAX_STORED_BYTES = 4 * 1024 * 1024 - 96 * 1024;

type Meta = Omit<ApiRecord, 'classic' | 'oas'>;
/** A record as read back, with the number of stored parts its document takes. */
export type StoredApi = ApiRecord & { parts: number };
type Stored = StoredApi;

/** The main item: the record's metadata, the first compressed part and how many parts there are. */
type Main = Meta & { body: Uint8Array; parts: number };

const mains = defineEntity<Main, [apiId: string]>({
  name: 'api',
  key: apiKeys.main,
  ids: (m) => [m.api_id],
  // The three sort orders of an organisation's list.
  indexes: (m) => ({
    GSI1PK: apiKeys.ofOrg(m.org_id),
    GSI1SK: timeSortKey(m.created_at, m.id),
    GSI2PK: apiKeys.ofOrg(m.org_id),
    GSI2SK: textSortKey(m.name.toLowerCase(), m.id),
    GSI3PK: apiKeys.ofOrg(m.org_id),
    GSI3SK: timeSortKey(m.updated_at, m.id),
  }),
  versioned: true,
  audited: true,
});
const partItems = defineEntity<{ body: Uint8Array }, [apiId: string, n: number]>({ name: 'api_part', key: apiKeys.part });
const dbIds = defineMarker({ name: 'api_db_id', key: apiKeys.byDbId });

function metaOf(api: ApiRecord): Meta {
  const { classic: _c, oas: _o, ...meta } = api;
  return meta;
}

/** The items of an API: the main item and the compressed document parts that do not fit in it. */
function itemsOf(api: ApiRecord): { main: Main; parts: Array<{ body: Uint8Array }> } {
  const chunks = encodeParts({ classic: api.classic, oas: api.oas }, PART_BYTES);
  const stored = chunks.reduce((n, c) => n + c.length, 0);
  if (stored > MAX_STORED_BYTES) {
    throw new PayloadTooLarge(
      `The API definition compresses to ${stored} bytes, more than the ${MAX_STORED_BYTES} one write can store; ` +
        'its text is unusually random (ordinary OpenAPI JSON up to 5 MB fits)',
    );
  }
  return { main: { ...metaOf(api), body: chunks[0]!, parts: chunks.length }, parts: chunks.slice(1).map((body) => ({ body })) };
}

const partPuts = (apiId: string, bodies: Array<{ body: Uint8Array }>): TxItem[] => bodies.map((p, i) => partItems.put(p, { at: [apiId, i + 1] }));

/** The API's own new items: the main item (api_id unique, 409), its database id (unique, 409), its parts. */
function ownItems(api: ApiRecord): TxItem[] {
  const { main, parts } = itemsOf(api);
  return [
    mains.insert(main, { taken: () => new IdTaken('api_id') }),
    dbIds.claim([api.id], { api_id: api.api_id }, () => new IdTaken('database id')),
    ...partPuts(api.api_id, parts),
  ];
}

/**
 * Transaction items that create an API, its listen claim aside (listen-claims.ts): its
 * organisation exists unless blank (422), api_id and database id unique (409), org count +1.
 */
export function insertApiItems(api: ApiRecord): TxItem[] {
  return [...ownItems(api), countChange(api.org_id, 'API', 1), ...(api.org_id ? [orgMustBeActive(api.org_id)] : [])];
}

/**
 * Transaction items that replace an API read at `previous.version`, its listen claim aside
 * (listen-claims.ts): the main item only if it is still that version (guardVersion: `subject`
 * false for another API the change rewrites, a version's base, whose claim stays as it is), parts
 * rewritten, surplus parts removed, counts moved when the organisation changes (to one that
 * exists, 422 otherwise).
 */
export function saveApiItems(api: ApiRecord, previous: Stored, opts: { subject?: boolean } = {}): TxItem[] {
  const { main, parts } = itemsOf(api);
  const items: TxItem[] = [guardVersion(mains.put(main), previous.version, { subject: opts.subject ?? true }), ...partPuts(api.api_id, parts)];
  for (let n = parts.length + 1; n < previous.parts; n++) items.push(partItems.remove(api.api_id, n));
  if (previous.org_id !== api.org_id) {
    if (api.org_id) items.push(orgMustBeActive(api.org_id));
    items.push(countChange(previous.org_id, 'API', -1));
    items.push(countChange(api.org_id, 'API', 1));
  }
  return items;
}

/**
 * Writes `items` with the listen claim moved from `previous` to `next` (listen-claims.ts) and the
 * routing version moved, built again while a concurrent claim on the same first segment moves the
 * index between read and write.
 */
async function writeWithClaim(items: TxItem[], next: ApiRecord | undefined, previous: ApiRecord | undefined, moveRouting = true): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeItems([...items, ...(await claimItems(next, previous)), ...(moveRouting ? [routingVersionMove()] : [])]);
    } catch (e) {
      if (!(e instanceof ClaimsMoved)) throw e;
      if (attempt >= CLAIM_ATTEMPTS) throw new Conflict('listen paths kept changing while this one was being claimed; try again');
    }
  }
}

/** Stores a new API, with `extra` items in the same transaction (a version's base). */
export async function insertApi(api: ApiRecord, extra: TxItem[] = []): Promise<ApiRecord> {
  await writeWithClaim([...insertApiItems(api), ...extra], api, undefined);
  return api;
}

/**
 * Stores an API carried by an organisation's import (contract §9): its ids and stamps as they were,
 * its listen claim by the rules of §13. Neither the organisation's state nor its count is checked
 * or moved here, nor the routing version: the import writes the counts and moves it once, at its end.
 */
export async function restoreApi(api: ApiRecord): Promise<void> {
  // The routing version moves once, with the import's counts: APIs written side by side would contend on it.
  await writeWithClaim(ownItems(api), api, undefined, false);
}

/** Every API of an organisation, whole (an export). */
export async function loadOrgApis(orgId: string): Promise<Stored[]> {
  const rows = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': apiKeys.ofOrg(orgId) },
    ProjectionExpression: 'api_id',
  });
  return (await loadApis(rows.map((r) => String(r.api_id)))).filter((a) => a.org_id === orgId);
}

/** Writes `next` over the API read as `previous` (guarded by its version), with `extra` items in the same transaction. */
export async function saveApi(next: ApiRecord, previous: Stored, extra: TxItem[] = []): Promise<void> {
  await writeWithClaim([...saveApiItems(next, previous), ...extra], next, previous);
}

/** The record and the size of its stored JSON (decompression capped at LIMITS.storedJsonBytes). */
function decodeItems(items: Json[]): { api: Stored; bytes: number } | undefined {
  const main = items.find((i) => i.SK === 'API');
  if (!main) return undefined;
  const parts = items
    .filter((i) => String(i.SK).startsWith('PART#'))
    .sort((a, b) => String(a.SK).localeCompare(String(b.SK)))
    .map((i) => i.body as Uint8Array);
  const decoded = decodeParts(
    [main.body as Uint8Array, ...parts].map((b) => Buffer.from(b)),
    `The stored definition of API ${String(main.api_id)}`,
  );
  const doc = decoded.value as { classic: Json; oas?: Json };
  const api: Stored = {
    id: String(main.id),
    api_id: String(main.api_id),
    org_id: String(main.org_id),
    name: String(main.name),
    kind: main.kind === 'oas' ? 'oas' : 'classic',
    classic: doc.classic,
    ...(doc.oas ? { oas: doc.oas } : {}),
    ...(main.base_api_id ? { base_api_id: String(main.base_api_id) } : {}),
    categories: (main.categories as string[] | undefined) ?? [],
    created_at: String(main.created_at),
    updated_at: String(main.updated_at),
    version: Number(main.version),
    parts: Number(main.parts ?? 1),
  };
  return { api, bytes: decoded.bytes };
}

/** One Query reads the main item and every part of an API, consistently. */
export async function loadApi(apiId: string): Promise<Stored | undefined> {
  return decodeItems(await getApiItems(apiId))?.api;
}

/**
 * Many APIs at once, for the change feed's routing: one BatchGetItem per 100 main items (which
 * hold the whole definition unless it is large) and one Query more only for each definition
 * stored in several parts. Absent ones are missing; order is not kept.
 */
export async function loadApis(apiIds: readonly string[]): Promise<Stored[]> {
  const found = await batchGet(
    [...new Set(apiIds)].map((id) => apiKeys.main(id)),
    true,
  );
  const apis = await Promise.all(found.map((main) => (Number(main.parts ?? 1) > 1 ? loadApi(String(main.api_id)) : decodeItems([main])?.api)));
  return apis.filter((a): a is Stored => a !== undefined);
}

function getApiItems(apiId: string): Promise<Json[]> {
  return queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': apiKeys.partition(apiId) }, ConsistentRead: true });
}

/** What owner and link checks need, without the definition: one GetItem of the main item. */
export type ApiSummary = Pick<ApiRecord, 'id' | 'api_id' | 'org_id' | 'base_api_id' | 'updated_at'>;

const SUMMARY_ATTRS = ['id', 'api_id', 'org_id', 'base_api_id', 'updated_at'];

function summaryOf(main: Json): ApiSummary {
  return {
    id: String(main.id),
    api_id: String(main.api_id),
    org_id: String(main.org_id),
    updated_at: String(main.updated_at),
    ...(main.base_api_id ? { base_api_id: String(main.base_api_id) } : {}),
  };
}

export async function loadApiSummary(apiId: string): Promise<ApiSummary | undefined> {
  const out = await ddb().send(
    new GetCommand({
      TableName: tableName(),
      Key: apiKeys.main(apiId),
      ConsistentRead: true,
      ProjectionExpression: SUMMARY_ATTRS.map((_, i) => `#a${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(SUMMARY_ATTRS.map((a, i) => [`#a${i}`, a])),
    }),
  );
  return out.Item ? summaryOf(out.Item as Json) : undefined;
}

/** Summaries of many APIs (BatchGetItem), keyed by api_id; absent ones are missing. */
export async function loadApiSummaries(apiIds: readonly string[]): Promise<Map<string, ApiSummary>> {
  const items = await batchGet(
    [...new Set(apiIds)].map((id) => apiKeys.main(id)),
    true,
    SUMMARY_ATTRS,
  );
  return new Map(items.map((i) => summaryOf(i)).map((s) => [s.api_id, s]));
}

/** A summary by api_id or by the 24-hex database id (dashboard routes take either). */
export async function loadApiSummaryByAnyId(id: string): Promise<ApiSummary | undefined> {
  const direct = await loadApiSummary(id);
  if (direct) return direct;
  const marker = await dbIds.holder(id);
  return marker ? loadApiSummary(String(marker.api_id)) : undefined;
}

/** Condition of a write that names an API (an OAuth client's): it must exist, `missing` otherwise. */
export const apiMustExist = (apiId: string, missing: () => AppError): TxItem => mains.mustExist(missing, apiId);

/**
 * The delete of an API read as `previous`: the main item only if still at that version
 * (guardVersion), its markers (listen claim too), parts and count.
 */
export function removeApiItems(previous: Stored): TxItem[] {
  const apiId = previous.api_id;
  const items: TxItem[] = [
    guardVersion(mains.remove(apiId), previous.version),
    dbIds.release(previous.id),
    countChange(previous.org_id, 'API', -1),
    ...releaseItems(previous),
    routingVersionMove(),
  ];
  for (let n = 1; n < previous.parts; n++) items.push(partItems.remove(apiId, n));
  return items;
}

export type ApiSort = 'name' | '-name' | 'created_at' | '-created_at' | 'updated_at' | '-updated_at';
const SORT_INDEX = { name: 'GSI2', created_at: 'GSI1', updated_at: 'GSI3' } as const;

/**
 * What an item adds to a list's answer, from its compressed size: every part but the last holds
 * PART_BYTES of gzip, and gzip output is never larger than its text but for a few bytes of framing
 * per 16 KB block (on incompressible text), so this does not overstate the JSON it decompresses to.
 */
function packedLowerBound(item: Json): number {
  const first = (item.body as Uint8Array | undefined)?.length ?? 0;
  return first + Math.max(0, Number(item.parts ?? 1) - 2) * PART_BYTES;
}

/**
 * A page of an organisation's APIs in one of six orders: a Query on the index of that order.
 * Documents that did not fit in the main item cost one more Query each. An answer that would
 * pass the response limit is refused (400, "ask in pages") while it is read, from the compressed
 * sizes first and the decompressed ones next, so `p=-1` never holds more than that in memory.
 */
export async function loadApiPage(orgId: string, sort: ApiSort, req: PageRequest) {
  const field = sort.replace(/^-/, '') as keyof typeof SORT_INDEX;
  const q = {
    index: SORT_INDEX[field],
    partition: apiKeys.ofOrg(orgId),
    forward: !sort.startsWith('-'),
    budget: { bytes: LIMITS.responseBytes, sizeOf: packedLowerBound, exceeded: () => new ResponseTooLarge() },
  };
  const [page, total] = await Promise.all([listPage(q, req), loadCount(orgId, 'API')]);
  const apis: Stored[] = [];
  let bytes = 0;
  for (const item of page.items) {
    const decoded = decodeItems(Number(item.parts ?? 1) > 1 ? await getApiItems(String(item.api_id)) : [{ ...item, SK: 'API' }]);
    if (!decoded) continue;
    bytes += decoded.bytes;
    if (bytes > LIMITS.responseBytes) throw new ResponseTooLarge();
    apis.push(decoded.api);
  }
  return { apis, pages: pageCount(total, req), next_cursor: page.nextCursor };
}
