/**
 * Assets (templates an import can start from) of the caller's organisation, named by `_id` or
 * by their custom `id`: ids, stamps and defaults. The only kind is oas-template (422 for another).
 */
import { NotFound, Unprocessable } from '../errors';
import { newDbId } from '../lib/hashing';
import type { IfMatch } from '../domain/if-match';
import { pageRequest } from '../domain/paging';
import type { Asset, AssetInput } from '../schemas/assets';
import { ASSET_KIND } from '../schemas/value-lists';
import type { PageQuery } from '../schemas/common';
import { writeVersioned } from '../store/db/versioned-write';
import { insertAsset, loadAsset, loadAssetPage, removeAsset, saveAsset, shownAsset, type AssetRecord } from '../store/assets';

function checkKind(kind: string | undefined): void {
  if (kind !== undefined && kind !== ASSET_KIND) {
    throw new Unprocessable(`kind ${kind} is not supported; the only asset kind is ${ASSET_KIND}`, [{ path: 'body.kind', message: `must be ${ASSET_KIND}` }]);
  }
}

const assetNotFound = (assetId: string) => () => new NotFound(`Asset ${assetId} not found`);

/** What a body sets; `_id`, `org_id` and `last_updated` in it are the server's and ignored. */
const fieldsOf = (input: AssetInput): Pick<Asset, 'name' | 'description' | 'kind' | 'data'> => ({
  name: input.name ?? '',
  description: input.description ?? '',
  kind: ASSET_KIND,
  data: input.data,
});

/** Creates an asset: 422 another kind, 409 a custom id taken in the organisation. */
export async function createAsset(orgId: string, input: AssetInput): Promise<Asset> {
  checkKind(input.kind);
  const now = new Date().toISOString();
  const asset: AssetRecord = {
    _id: newDbId(),
    ...(input.id !== undefined ? { id: input.id } : {}),
    ...fieldsOf(input),
    org_id: orgId,
    created_at: now,
    last_updated: now,
    version: 1,
  };
  await insertAsset(asset);
  return shownAsset(asset);
}

/** An asset by `_id` or custom `id`, and its version; another organisation's is 404. */
export async function getAsset(orgId: string, assetId: string): Promise<{ asset: Asset; version: number }> {
  const found = await loadAsset(orgId, assetId);
  if (!found) throw assetNotFound(assetId)();
  return { asset: shownAsset(found), version: found.version };
}

/**
 * Replaces name, description, kind and data; `id` changes only when the body gives one (409 when
 * taken). 404 unknown, 412 stale If-Match, 422 kind.
 */
export function replaceAsset(orgId: string, assetId: string, input: AssetInput, ifMatch: IfMatch | undefined): Promise<{ asset: Asset; version: number }> {
  checkKind(input.kind);
  return writeVersioned({
    what: `asset ${assetId}`,
    ifMatch,
    read: () => loadAsset(orgId, assetId, true),
    notFound: assetNotFound(assetId),
    write: async (current) => {
      const id = input.id ?? current.id;
      const next: AssetRecord = {
        _id: current._id,
        ...(id !== undefined ? { id } : {}),
        ...fieldsOf(input),
        org_id: orgId,
        created_at: current.created_at,
        last_updated: new Date().toISOString(),
        version: current.version + 1,
      };
      await saveAsset(next, current);
      return { asset: shownAsset(next), version: next.version };
    },
  });
}

/** Deletes an asset with its custom-id marker: 404 unknown, 412 stale If-Match. */
export function deleteAsset(orgId: string, assetId: string, ifMatch: IfMatch | undefined): Promise<Asset> {
  return writeVersioned({
    what: `asset ${assetId}`,
    ifMatch,
    read: () => loadAsset(orgId, assetId, true),
    notFound: assetNotFound(assetId),
    write: async (current) => {
      await removeAsset(current);
      return shownAsset(current);
    },
  });
}

/** The organisation's assets in creation order, paged. */
export const listAssets = (orgId: string, query: PageQuery) => loadAssetPage(orgId, pageRequest(query));
