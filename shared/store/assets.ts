/**
 * Assets (OAS templates). Every key lives under the organisation, so an asset of another
 * organisation is simply not found (404). The custom `id` is unique within the organisation
 * through a marker item written in the same transaction as the asset (409). The template data
 * is stored gzipped in the asset item.
 */
import { Conflict, PayloadTooLarge } from '../errors';
import { decodeParts, encodeParts } from './db/stored-parts';
import { pageCount, type PageRequest } from '../domain/paging';
import type { Asset } from '../schemas/assets';
import { ASSET_KIND } from '../schemas/value-lists';
import { defineEntity, defineMarker } from './db/entity';
import { getItem, loadListed } from './db/items';
import { listPage } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { guardVersion } from './db/versioned-write';
import { countChange, loadCount, orgMustExist } from './organisations';

export const assetKeys = {
  main: (orgId: string, dbId: string): StorageKey => ({ PK: `ORG#${orgId}#ASSET#${dbId}`, SK: 'ASSET' }),
  /** Marker that makes a custom id unique within its organisation; holds the asset's `_id`. */
  customId: (orgId: string, id: string): StorageKey => ({ PK: `ORG#${orgId}#ASSETID#${id}`, SK: 'UNIQUE' }),
  /** GSI1: an organisation's assets in creation order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#ASSETS`,
};

/** An asset as stored: what reads show, with its creation time and version. */
export type AssetRecord = Asset & { created_at: string; version: number };

/** The item's own attributes: the data rides gzipped in `body`. */
type Packed = Omit<AssetRecord, 'data'> & { body: Buffer };

const assets = defineEntity<Packed, [orgId: string, dbId: string]>({
  name: 'asset',
  key: assetKeys.main,
  ids: (a) => [a.org_id, a._id],
  indexes: (a) => ({ GSI1PK: assetKeys.ofOrg(a.org_id), GSI1SK: timeSortKey(a.created_at, a._id) }),
  versioned: true,
  audited: true,
});
const customIds = defineMarker({ name: 'asset_custom_id', key: assetKeys.customId });

const DB_ID = /^[0-9a-f]{24}$/;
/** The gzipped template rides in the asset item, which must stay well under DynamoDB's 400 KB. */
const MAX_PACKED_BYTES = 350_000;

function pack({ data, ...rest }: AssetRecord): Packed {
  const parts = encodeParts(data, MAX_PACKED_BYTES);
  if (parts.length > 1) throw new PayloadTooLarge('The template data is too large: at most 350 KB after compression');
  return { ...rest, body: parts[0]! };
}

function unpack(item: Record<string, unknown>): AssetRecord {
  return {
    _id: String(item._id),
    ...(typeof item.id === 'string' ? { id: item.id } : {}),
    name: String(item.name ?? ''),
    description: String(item.description ?? ''),
    kind: ASSET_KIND,
    data: decodeParts([Buffer.from(item.body as Uint8Array)], `Template ${String(item._id)}`).value as Record<string, unknown>,
    org_id: String(item.org_id),
    created_at: String(item.created_at),
    last_updated: String(item.last_updated),
    version: Number(item.version),
  };
}

/** The asset as reads show it. */
export const shownAsset = ({ created_at: _c, version: _v, ...asset }: AssetRecord): Asset => asset;

const claimId = (orgId: string, id: string, dbId: string): TxItem =>
  customIds.claim([orgId, id], { asset_id: dbId }, () => new Conflict(`an asset with id ${id} already exists in this organisation`));

/** Stores a new asset; its custom id is unique in the organisation (409). */
export async function insertAsset(asset: AssetRecord): Promise<void> {
  await writeItems([orgMustExist(asset.org_id), ...restoredAssetItems(asset), countChange(asset.org_id, 'ASSET', 1)]);
}

/** The asset named by its `_id` or its custom `id`, or undefined. */
export async function loadAsset(orgId: string, assetId: string, consistent = false): Promise<AssetRecord | undefined> {
  if (DB_ID.test(assetId)) {
    const direct = await getItem(assetKeys.main(orgId, assetId), consistent);
    if (direct) return unpack(direct);
  }
  const marker = await getItem(assetKeys.customId(orgId, assetId), consistent);
  const item = marker && (await getItem(assetKeys.main(orgId, String(marker.asset_id)), consistent));
  return item ? unpack(item) : undefined;
}

/**
 * Writes `next` over the asset read as `previous` (guarded by its version); a changed custom id
 * moves its marker in the same transaction (409 when taken).
 */
export async function saveAsset(next: AssetRecord, previous: AssetRecord): Promise<void> {
  const tx: TxItem[] = [guardVersion(assets.put(pack(next)), previous.version)];
  if (next.id !== previous.id) {
    if (previous.id !== undefined) tx.push(customIds.release(previous.org_id, previous.id));
    if (next.id !== undefined) tx.push(claimId(next.org_id, next.id, next._id));
  }
  await writeItems(tx);
}

/**
 * Deletes the asset read as `previous`, its custom-id marker and its count in one transaction;
 * guarded by the version read, so the marker removed is the one this version holds.
 */
export async function removeAsset(previous: AssetRecord): Promise<void> {
  await writeItems([
    guardVersion(assets.remove(previous.org_id, previous._id), previous.version),
    ...(previous.id !== undefined ? [customIds.release(previous.org_id, previous.id)] : []),
    countChange(previous.org_id, 'ASSET', -1),
  ]);
}

export async function loadAssetPage(orgId: string, req: PageRequest) {
  const q = { index: 'GSI1' as const, partition: assetKeys.ofOrg(orgId), forward: true };
  const [page, total] = await Promise.all([listPage(q, req), loadCount(orgId, 'ASSET')]);
  return { assets: page.items.map(unpack).map(shownAsset), pages: pageCount(total, req), next_cursor: page.nextCursor };
}

/** Every template of an organisation, whole (an export). */
export async function loadOrgAssets(orgId: string): Promise<AssetRecord[]> {
  return (await loadListed(assetKeys.ofOrg(orgId))).map(unpack);
}

/** The writes of a new template and its custom-id marker (409 when taken in the organisation). */
export const restoredAssetItems = (asset: AssetRecord): TxItem[] => [
  assets.insert(pack({ ...asset, version: 1 })),
  ...(asset.id !== undefined ? [claimId(asset.org_id, asset.id, asset._id)] : []),
];
