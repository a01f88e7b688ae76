/**
 * Assets (templates an import can start from) of the caller's organisation, named by `_id` or
 * by their custom `id`. The only kind is oas-template (422 for another).
 */
import { NotFound, Unprocessable } from '../errors';
import { pageRequest } from '../domain/paging';
import { ASSET_KIND, type Asset, type AssetInput } from '../schemas/assets';
import type { PageQuery } from '../schemas/common';
import * as store from '../store/assets';
import type { IfMatch } from '../domain/if-match';

function checkKind(kind: string | undefined): void {
  if (kind !== undefined && kind !== ASSET_KIND) {
    throw new Unprocessable(`kind ${kind} is not supported; the only asset kind is ${ASSET_KIND}`, [
      { path: 'body.kind', message: `must be ${ASSET_KIND}` },
    ]);
  }
}

/** Creates an asset: 422 another kind, 409 a custom id taken in the organisation. */
export function createAsset(orgId: string, input: AssetInput): Promise<Asset> {
  checkKind(input.kind);
  return store.createAsset(orgId, input);
}

/** An asset by `_id` or custom `id`, and its version; another organisation's is 404. */
export async function getAsset(orgId: string, assetId: string): Promise<{ asset: Asset; version: number }> {
  const found = await store.getAsset(orgId, assetId);
  if (!found) throw new NotFound(`Asset ${assetId} not found`);
  return found;
}

/** Replaces an asset: 404 unknown, 409 custom id taken, 412 stale If-Match, 422 kind. */
export function replaceAsset(orgId: string, assetId: string, input: AssetInput, ifMatch: IfMatch | undefined): Promise<{ asset: Asset; version: number }> {
  checkKind(input.kind);
  return store.replaceAsset(orgId, assetId, input, ifMatch);
}

/** Deletes an asset with its custom-id marker: 404 unknown, 412 stale If-Match. */
export const deleteAsset = (orgId: string, assetId: string, ifMatch: IfMatch | undefined): Promise<Asset> => store.deleteAsset(orgId, assetId, ifMatch);

/** The organisation's assets in creation order, paged. */
export const listAssets = (orgId: string, query: PageQuery) => store.listAssets(orgId, pageRequest(query));
