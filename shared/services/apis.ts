/**
 * API definitions, their versions and their OAuth clients: one aggregate. Every change that
 * touches more than one of them (a version and its base, an API and the clients it takes along
 * on delete) is one transaction, assembled here from the items the store modules answer. Reads
 * live in api-reads.ts, so the read functions never load the OAS <-> classic conversion.
 */
import { Conflict, NotFound, PreconditionFailed, Unprocessable } from '../errors';
import { assertSameId, recordFromClassic, recordFromOas, type ApiRecord } from '../domain/api-records';
import { GW_EXTENSION, normaliseOasWriteBody } from '../domain/oas-document';
import { keepLinkedVersions, linkVersion, unlinkVersion, versionsOf } from '../domain/versioning';
import type { VersionQuery } from '../schemas/import';
import { createApi, deleteApiItems, getApi, getApiSummaries, getApiSummaryByAnyId, replaceApi, replaceApiItems, type StoredApi } from '../store/apis';
import { clientDeleteItems } from '../store/oauth-clients';
import { transactWrite, type TxItem } from '../store/db/transactions';
import { assertHandlersNameHooks } from './hooks';
import { ifMatchAllows, type IfMatch } from '../domain/if-match';

type Obj = Record<string, unknown>;

/** Room left in a delete's transaction after the API's own items, its parts and its base. */
const MAX_CLIENTS_IN_DELETE = 50;

/** A base changed between our read and our write: read it again (another link, or an edit). */
class BaseStale extends PreconditionFailed {}

/** Attempts before a base that keeps changing under us is reported as 412. */
const MAX_ATTEMPTS = 5;

const now = () => new Date().toISOString();

// --- writes ------------------------------------------------------------------------------------

/** POST /gw/apis: a classic API; 409 when api_id or the listen path is taken. */
export async function createClassicApi(definition: Obj): Promise<ApiRecord> {
  const record = recordFromClassic(definition, now());
  await assertHandlersNameHooks(record.org_id, record.classic);
  return createApi(record);
}

/** POST /gw/apis/oas: a whole document or the bare extension; with base_api_id, a version of that base. */
export async function createOasApi(body: Obj, q: VersionQuery): Promise<ApiRecord> {
  const record = recordFromOas(normaliseOasWriteBody(body), now());
  await assertHandlersNameHooks(record.org_id, record.classic);
  return createApiWithVersion(record, q);
}

/**
 * PUT /gw/apis/oas/{apiID}: replaces; 400 when the body names another id; 404 unknown. The
 * stored version list of a base is kept (only version writes change it).
 */
export async function replaceOasApi(apiId: string, body: Obj, q: VersionQuery, ifMatch: IfMatch | undefined): Promise<void> {
  const doc = normaliseOasWriteBody(body);
  const info = ((doc[GW_EXTENSION] as Record<string, any>).info ??= {});
  assertSameId(apiId, info.id, 'body.x-gw-api-gateway.info.id');
  const existing = await getApi(apiId);
  if (!existing) throw new NotFound(`API ${apiId} not found`);
  doc[GW_EXTENSION] = keepLinkedVersions(doc[GW_EXTENSION] as Obj, existing.oas?.[GW_EXTENSION] as Obj | undefined);
  const record = recordFromOas(doc, now(), existing);
  await assertHandlersNameHooks(record.org_id, record.classic);
  await replaceApiWithVersion(record, ifMatch, q);
}

// --- versions (contract §8) --------------------------------------------------------------------

const unknownBase = (id: string) =>
  new Unprocessable(`base API ${id} does not exist`, [{ path: 'query.base_api_id', message: 'unknown API' }]);

/**
 * The base named by the query, in the child's organisation and in OAS form; 422 otherwise. The
 * owner is checked on the summary, so another organisation's definition is never read.
 */
async function loadBase(baseId: string, orgId: string, childApiId: string): Promise<StoredApi> {
  const summary = await getApiSummaryByAnyId(baseId);
  if (!summary || summary.org_id !== orgId) throw unknownBase(baseId);
  const base = await getApi(summary.api_id);
  if (!base || base.org_id !== orgId) throw unknownBase(baseId);
  if (base.api_id === childApiId) {
    throw new Unprocessable('an API cannot be a version of itself', [{ path: 'query.base_api_id', message: 'is the API itself' }]);
  }
  if (!base.oas) {
    throw new Unprocessable(`base API ${baseId} is a classic API; only OAS APIs take OAS versions`, [
      { path: 'query.base_api_id', message: 'not an OAS API' },
    ]);
  }
  return base;
}

/** Transaction items that rewrite `base` with a changed `x-gw-api-gateway`, guarded by its version. */
function baseItems(base: StoredApi, gateway: Obj, stamp: string): TxItem[] {
  const doc = { ...base.oas!, [GW_EXTENSION]: gateway };
  const next = recordFromOas(doc, stamp, base);
  const [main, ...rest] = replaceApiItems(next, base, true);
  return [{ op: main!.op, onConditionFail: () => new BaseStale() }, ...rest];
}

function linkedBaseItems(base: StoredApi, childApiId: string, q: VersionQuery, stamp: string): TxItem[] {
  const gateway = linkVersion((base.oas![GW_EXTENSION] ?? {}) as Obj, {
    childApiId,
    newVersionName: q.new_version_name,
    baseVersionName: q.base_api_version_name,
    setDefault: q.set_default,
  });
  return baseItems(base, gateway, stamp);
}

/** Retries the whole read-and-write when only the base changed in between. */
async function withBaseRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (e) {
      if (!(e instanceof BaseStale) || attempt >= MAX_ATTEMPTS) throw e;
    }
  }
}

function requireVersionName(q: VersionQuery): void {
  if (!q.new_version_name?.trim()) {
    throw new Unprocessable('new_version_name is required when base_api_id is given', [
      { path: 'query.new_version_name', message: 'required with base_api_id' },
    ]);
  }
}

/**
 * Creates `child`; with `base_api_id` it is created as a version of that base (which must exist
 * in the child's organisation, else 422), and the base's versioning changes in the same
 * transaction. Without `base_api_id` the version parameters are ignored.
 */
export async function createApiWithVersion(child: ApiRecord, q: VersionQuery): Promise<ApiRecord> {
  if (!q.base_api_id) return createApi(child);
  requireVersionName(q);
  const baseId = q.base_api_id;
  return withBaseRetry(async () => {
    const base = await loadBase(baseId, child.org_id, child.api_id);
    return createApi({ ...child, base_api_id: base.api_id }, linkedBaseItems(base, child.api_id, q, now()));
  });
}

/**
 * Replaces `child` (If-Match as for any update); with `base_api_id` it becomes (or stays) a
 * version of that base. A child that moves to another base leaves its old base's version list in
 * the same transaction.
 */
export async function replaceApiWithVersion(child: ApiRecord, ifMatch: IfMatch | undefined, q: VersionQuery): Promise<ApiRecord> {
  if (!q.base_api_id) return replaceApi(child, ifMatch);
  requireVersionName(q);
  const baseId = q.base_api_id;
  return withBaseRetry(async () => {
    const stamp = now();
    const base = await loadBase(baseId, child.org_id, child.api_id);
    const extra = linkedBaseItems(base, child.api_id, q, stamp);
    const oldBaseId = child.base_api_id;
    if (oldBaseId && oldBaseId !== base.api_id) {
      const oldBase = await getApi(oldBaseId);
      if (oldBase?.oas) extra.push(...baseItems(oldBase, unlinkVersion((oldBase.oas[GW_EXTENSION] ?? {}) as Obj, child.api_id), stamp));
    }
    return replaceApi({ ...child, base_api_id: base.api_id }, ifMatch, extra);
  });
}

// --- delete ------------------------------------------------------------------------------------

const gatewayOf = (api: StoredApi): Obj => (api.oas?.[GW_EXTENSION] ?? {}) as Obj;

/**
 * Versions listed by `base` that still exist and still name it as their base. A listed id that is
 * gone (or was moved elsewhere) links nothing, so it must not block deleting the base.
 */
async function liveChildren(base: StoredApi): Promise<string[]> {
  const listed = versionsOf(gatewayOf(base));
  const found = await getApiSummaries(listed.map((v) => v.id));
  return listed.filter((v) => found.get(v.id)?.base_api_id === base.api_id).map((v) => `${v.id} (${v.name})`);
}

/**
 * The delete of `api` with its OAuth clients plus, for a version, its base without it (guarded by
 * the base's version, so a concurrent link or edit of the base is read again instead of being
 * overwritten).
 */
async function deleteItems(api: StoredApi): Promise<TxItem[]> {
  const clients = await clientDeleteItems(api.api_id);
  // One transaction holds at most 100 items; an API with very many clients asks for them first.
  if (clients.length > MAX_CLIENTS_IN_DELETE) {
    throw new Conflict(`API ${api.api_id} has ${clients.length} OAuth clients; delete them first (at most ${MAX_CLIENTS_IN_DELETE} go with the API)`);
  }
  const items = [...deleteApiItems(api), ...clients];
  if (!api.base_api_id) return items;
  const base = await getApi(api.base_api_id);
  // Nothing to unlink when the base is gone or no longer lists this version.
  if (!base?.oas || !versionsOf(gatewayOf(base)).some((v) => v.id === api.api_id)) return items;
  return [...items, ...baseItems(base, unlinkVersion(gatewayOf(base), api.api_id), now())];
}

/**
 * DELETE /gw/apis/{apiID}: deletes an API without breaking version links: a version leaves its
 * base's version list (and so the classic form's `definition.versions`) in the same transaction;
 * a base that still has versions is refused with 409 naming them, as deleting it would leave them
 * pointing at nothing. 404 unknown; 412 when If-Match names another version. Without If-Match a
 * delete that lost a race to a write of the API is retried on the newer version; a base that
 * changed is re-read whether or not If-Match was sent, as it is not the object the client named.
 */
export async function deleteApi(apiId: string, ifMatch: IfMatch | undefined): Promise<ApiRecord> {
  for (let attempt = 1; ; attempt++) {
    const api = await getApi(apiId);
    if (!api) throw new NotFound(`API ${apiId} not found`);
    if (!ifMatchAllows(ifMatch, api.version)) throw new PreconditionFailed();
    const children = await liveChildren(api);
    if (children.length > 0) {
      throw new Conflict(`API ${apiId} is the base of versions ${children.join(', ')}; delete or unlink its versions first`);
    }
    try {
      await transactWrite(await deleteItems(api));
      return api;
    } catch (e) {
      const retry = e instanceof BaseStale || (e instanceof PreconditionFailed && ifMatch === undefined);
      if (!retry || attempt >= MAX_ATTEMPTS) throw e;
    }
  }
}
