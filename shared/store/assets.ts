/**
 * Assets (OAS templates). Every key lives under the organisation, so an asset of another
 * organisation is simply not found (404). The custom `id` is unique within the organisation
 * through a marker item written in the same transaction as the asset (409).
 */
import { Conflict, NotFound, PayloadTooLarge, PreconditionFailed } from '../errors';
import { decodeChunks, encodeChunks } from '../domain/chunks';
import { newDbId } from '../domain/hashing';
import { pageCount, type PageRequest } from '../domain/paging';
import { ASSET_KIND, type Asset, type AssetInput } from '../schemas/assets';
import { getItem } from './db/items';
import { listPage } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { deleteOp, putOp, transactWrite, type TxItem } from './db/transactions';
import { countChange, readCount } from './organisations';
import { ifMatchAllows, type IfMatch } from '../domain/if-match';

type Item = Record<string, unknown>;

export const assetKeys = {
  main: (orgId: string, dbId: string): StorageKey => ({ PK: `ORG#${orgId}#ASSET#${dbId}`, SK: 'ASSET' }),
  /** Marker that makes a custom id unique within its organisation; holds the asset's `_id`. */
  customId: (orgId: string, id: string): StorageKey => ({ PK: `ORG#${orgId}#ASSETID#${id}`, SK: 'UNIQUE' }),
  /** GSI1: an organisation's assets in creation order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#ASSETS`,
};

const DB_ID = /^[0-9a-f]{24}$/;
/** The gzipped template rides in the asset item, which must stay well under DynamoDB's 400 KB. */
const MAX_PACKED_BYTES = 350_000;

/** A condition failure on the asset item when no If-Match was sent: another writer won; read again. */
class Stale extends PreconditionFailed {}

function pack(data: Record<string, unknown>): Buffer {
  const parts = encodeChunks(data, MAX_PACKED_BYTES);
  if (parts.length > 1) throw new PayloadTooLarge('The template data is too large: at most 350 KB after compression');
  return parts[0]!;
}

function toAsset(item: Item): Asset {
  return {
    _id: String(item._id),
    ...(typeof item.id === 'string' ? { id: item.id } : {}),
    name: String(item.name ?? ''),
    description: String(item.description ?? ''),
    kind: ASSET_KIND,
    data: decodeChunks([Buffer.from(item.body as Uint8Array)], `Template ${String(item._id)}`).value as Record<string, unknown>,
    org_id: String(item.org_id),
    last_updated: String(item.last_updated),
  };
}

const put = putOp;

const markerPut = (orgId: string, id: string, dbId: string): TxItem => ({
  op: put({ ...assetKeys.customId(orgId, id), entity: 'unique', asset_id: dbId }, 'attribute_not_exists(PK)'),
  onConditionFail: () => new Conflict(`an asset with id ${id} already exists in this organisation`),
});

const markerDelete = (orgId: string, id: string): TxItem => ({
  op: deleteOp(assetKeys.customId(orgId, id)),
});

function assetItem(orgId: string, dbId: string, createdAt: string, now: string, input: AssetInput, id: string | undefined): Item {
  return {
    ...assetKeys.main(orgId, dbId),
    entity: 'asset',
    GSI1PK: assetKeys.ofOrg(orgId),
    GSI1SK: timeSortKey(createdAt, dbId),
    _id: dbId,
    ...(id !== undefined ? { id } : {}),
    name: input.name ?? '',
    description: input.description ?? '',
    kind: ASSET_KIND,
    org_id: orgId,
    created_at: createdAt,
    last_updated: now,
    body: pack(input.data),
  };
}

/** Creates an asset; its custom id is unique in the organisation (409). */
export async function createAsset(orgId: string, input: AssetInput): Promise<Asset> {
  const now = new Date().toISOString();
  const dbId = newDbId();
  const item = { ...assetItem(orgId, dbId, now, now, input, input.id), version: 1 };
  await transactWrite([
    { op: put(item, 'attribute_not_exists(PK)') },
    ...(input.id !== undefined ? [markerPut(orgId, input.id, dbId)] : []),
    countChange(orgId, 'ASSET', 1),
  ]);
  return toAsset(item);
}

/** The stored item of an asset named by its `_id` or its custom `id`. */
async function findItem(orgId: string, assetId: string, consistent = false): Promise<Item | undefined> {
  if (DB_ID.test(assetId)) {
    const direct = await getItem(assetKeys.main(orgId, assetId), consistent);
    if (direct) return direct;
  }
  const marker = await getItem(assetKeys.customId(orgId, assetId), consistent);
  return marker ? getItem(assetKeys.main(orgId, String(marker.asset_id)), consistent) : undefined;
}

const notFound = (assetId: string) => new NotFound(`Asset ${assetId} not found`);

export async function getAsset(orgId: string, assetId: string): Promise<{ asset: Asset; version: number } | undefined> {
  const item = await findItem(orgId, assetId);
  return item ? { asset: toAsset(item), version: Number(item.version) } : undefined;
}

/**
 * Replaces name, description, kind and data; `id` changes only when the body gives one (its
 * marker moves in the same transaction, 409 when taken). If-Match must name the current version
 * (412); without it the last write wins, re-reading when another writer got in between.
 */
export async function replaceAsset(orgId: string, assetId: string, input: AssetInput, ifMatch: IfMatch | undefined) {
  for (;;) {
    const current = await findItem(orgId, assetId, true);
    if (!current) throw notFound(assetId);
    const version = Number(current.version);
    if (!ifMatchAllows(ifMatch, version)) throw new PreconditionFailed();
    const dbId = String(current._id);
    const oldId = typeof current.id === 'string' ? current.id : undefined;
    const newId = input.id ?? oldId;
    const item = { ...assetItem(orgId, dbId, String(current.created_at), new Date().toISOString(), input, newId), version: version + 1 };
    const tx: TxItem[] = [
      { op: put(item, 'attribute_exists(PK) AND version = :v', { ':v': version }), onConditionFail: () => new Stale() },
    ];
    if (newId !== oldId) {
      if (oldId !== undefined) tx.push(markerDelete(orgId, oldId));
      if (newId !== undefined) tx.push(markerPut(orgId, newId, dbId));
    }
    try {
      await transactWrite(tx);
      return { asset: toAsset(item), version: version + 1 };
    } catch (e) {
      if (!(e instanceof Stale) || ifMatch !== undefined) throw e;
    }
  }
}

/** Deletes an asset, its custom-id marker and its count in one transaction; 404 / 412 as for PUT. */
export async function deleteAsset(orgId: string, assetId: string, ifMatch: IfMatch | undefined): Promise<Asset> {
  for (;;) {
    const current = await findItem(orgId, assetId, true);
    if (!current) throw notFound(assetId);
    const version = Number(current.version);
    if (!ifMatchAllows(ifMatch, version)) throw new PreconditionFailed();
    const tx: TxItem[] = [
      // Guarded by the version read, so the marker removed below is the one this version holds.
      { op: deleteOp(assetKeys.main(orgId, String(current._id)), 'version = :v', { ':v': version }), onConditionFail: () => new Stale() },
      ...(typeof current.id === 'string' ? [markerDelete(orgId, current.id)] : []),
      countChange(orgId, 'ASSET', -1),
    ];
    try {
      await transactWrite(tx);
      return toAsset(current);
    } catch (e) {
      if (!(e instanceof Stale) || ifMatch !== undefined) throw e;
    }
  }
}

export async function listAssets(orgId: string, req: PageRequest) {
  const q = { index: 'GSI1' as const, partition: assetKeys.ofOrg(orgId), forward: true };
  const [page, total] = await Promise.all([listPage(q, req), readCount(orgId, 'ASSET')]);
  return { assets: page.items.map(toAsset), pages: pageCount(total, req), next_cursor: page.nextCursor };
}
