/**
 * Reads of API definitions: the classic form of any API, an OAS document, an organisation's
 * list. Apart from the writes (apis.ts) so a read function loads only the store and the listing.
 */
import { NotFound } from '../errors';
import { listingEntry } from '../domain/api-listing';
import { publicView } from '../domain/oas-document';
import { pageRequest } from '../domain/paging';
import type { ApiListQuery } from '../schemas/apis';
import { loadApi, loadApiPage, type StoredApi } from '../store/apis';
import { orgApi } from './org-apis';

type Obj = Record<string, unknown>;

/** Any API in classic form (OAS ones converted, with is_oas true); 404 when unknown. */
export async function getClassicApi(apiId: string): Promise<StoredApi> {
  const api = await loadApi(apiId);
  if (!api) throw new NotFound(`API ${apiId} not found`);
  return api;
}

/** An OAS API's document; `mode=public` leaves out x-gw-api-gateway; 404 for classic APIs too. */
export async function getOasApi(apiId: string, mode: string | undefined): Promise<{ document: Obj; version: number }> {
  const api = await loadApi(apiId);
  if (!api?.oas) throw new NotFound(`OAS API ${apiId} not found`);
  return { document: mode === 'public' ? publicView(api.oas) : api.oas, version: api.version };
}

/** A page of the organisation's APIs as listing entries, in one of six orders. */
export async function listOrgApis(orgId: string, query: ApiListQuery) {
  const page = await loadApiPage(orgId, query.sort, pageRequest(query));
  return { apis: page.apis.map(listingEntry), pages: page.pages, next_cursor: page.next_cursor };
}

/** GET /api/apis/{apiID}: an API of the caller's organisation (api_id or database id) as its listing entry; 404 otherwise. */
export async function getOrgApiEntry(orgId: string, anyId: string) {
  const api = await orgApi(orgId, anyId);
  if (!api) throw new NotFound(`API ${anyId} not found`);
  return { entry: listingEntry(api), version: api.version };
}

/** GET /api/apis/oas/{apiID}: an OAS API of the caller's organisation; 404 for classic, unknown or another organisation's. */
export async function getOrgOasApi(orgId: string, anyId: string, mode: string | undefined): Promise<{ document: Obj; version: number }> {
  const api = await orgApi(orgId, anyId);
  if (!api?.oas) throw new NotFound(`OAS API ${anyId} not found`);
  return { document: mode === 'public' ? publicView(api.oas) : api.oas, version: api.version };
}
