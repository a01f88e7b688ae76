/**
 * API definitions, their versions and their OAuth clients: one aggregate. Every change that
 * touches more than one of them (a version and its base, an API and the clients it takes along
 * on delete) is one transaction, assembled here from the items the store modules answer. Reads
 * live in api-reads.ts, so the read functions never load the OAS <-> classic conversion.
 */
import { Conflict, NotFound, Unprocessable } from '../errors';
import { callerOrg } from '../domain/caller-org';
import { recordFromClassic, recordFromOas } from '../domain/api-builders';
import type { ApiRecord } from '../domain/api-records';
import { keepLinkedVersions, linkVersion, unlinkVersion, versionsOf } from '../domain/api-versions';
import type { IfMatch } from '../domain/if-match';
import { classicToOas } from '../domain/oas-classic';
import { GW_EXTENSION, normaliseOasWriteBody } from '../domain/oas-document';
import { assertBodyIdIsPathId } from '../domain/path-ids';
import type { VersionQuery } from '../schemas/import';
import { removeApiItems, insertApi, loadApi, loadApiSummaries, saveApiItems, saveApi, type StoredApi } from '../store/apis';
import { writeItems, type TxItem } from '../store/db/transactions';
import { retryWhileMoved, writeVersioned } from '../store/db/versioned-write';
import { removeClientItems } from '../store/oauth-clients';
import { requireOrgReferences } from './definition-references';
import { assertHandlersNameHooks } from './hooks';
import { orgApi } from './org-apis';

type Obj = Record<string, unknown>;

/**
 * Room left in a delete's transaction after the API's own items, its parts and its base: each
 * client is two items (its delete and its deletion record for the audit trail).
 */
const MAX_CLIENTS_IN_DELETE = 35;

const now = () => new Date().toISOString();

// --- writes ------------------------------------------------------------------------------------

/**
 * Who writes: a gateway write (no organisation: the definition names its own, any API may be
 * named), or a dashboard write of `org` (contract §2): the definition's organisation must be
 * absent or the caller's (400), the API it replaces the caller's (404 like an unknown one), and
 * every policy, version API and base it names the caller's (422 like a missing one).
 */
export type Writer = { org?: undefined } | { org: string };

/** The checks of every definition write: references of a dashboard write in its organisation, webhook handlers. */
async function checkDefinition(record: ApiRecord, by: Writer): Promise<void> {
  if (by.org !== undefined) await requireOrgReferences(by.org, record, { versions: true });
  await assertHandlersNameHooks(record.org_id, record.classic);
}

/** The API a write replaces: for a dashboard write, only the caller's, by api_id or database id; 404 otherwise. */
async function existingApi(apiId: string, by: Writer): Promise<StoredApi> {
  const existing = by.org === undefined ? await loadApi(apiId) : await orgApi(by.org, apiId);
  if (!existing) throw new NotFound(`API ${apiId} not found`);
  return existing;
}

/** POST /gw/apis, POST /api/apis: a classic API; 409 when api_id or the listen path is taken. */
export async function createClassicApi(definition: Obj, by: Writer = {}): Promise<ApiRecord> {
  const def = by.org === undefined ? definition : { ...definition, org_id: callerOrg(definition.org_id, by.org, 'body.api_definition.org_id') };
  const record = recordFromClassic(def, now());
  await checkDefinition(record, by);
  return insertApi(record);
}

/** POST /gw/apis/oas, POST /api/apis/oas: a whole document or the bare extension; with base_api_id, a version of that base. */
export async function createOasApi(body: Obj, q: VersionQuery, by: Writer = {}): Promise<ApiRecord> {
  const doc = normaliseOasWriteBody(body);
  stampOasOrg(doc, by);
  const record = recordFromOas(doc, now());
  await checkDefinition(record, by);
  return createApiWithVersion(record, q);
}

/** A dashboard write's document carries the caller's organisation (info.orgId absent or the caller's, else 400). */
function stampOasOrg(doc: Obj, by: Writer): void {
  if (by.org === undefined) return;
  const info = ((doc[GW_EXTENSION] as Record<string, any>).info ??= {});
  info.orgId = callerOrg(info.orgId, by.org, 'body.x-gw-api-gateway.info.orgId');
}

/**
 * PUT /gw/apis/oas/{apiID}, PUT /api/apis/oas/{apiID}: replaces; 400 when the body names another
 * id; 404 unknown (for a dashboard write: not the caller's; the path may hold the database id).
 * The stored version list of a base is kept (only version writes change it).
 */
export async function replaceOasApi(apiId: string, body: Obj, q: VersionQuery, ifMatch: IfMatch | undefined, by: Writer = {}): Promise<ApiRecord> {
  const doc = normaliseOasWriteBody(body);
  stampOasOrg(doc, by);
  const info = ((doc[GW_EXTENSION] as Record<string, any>).info ??= {});
  // A gateway path holds the api_id, so a body naming another is 400 before any read; a
  // dashboard path may hold the database id, compared once the API is known to be the caller's.
  if (by.org === undefined) assertBodyIdIsPathId('API', apiId, info.id, 'body.x-gw-api-gateway.info.id');
  const existing = await existingApi(apiId, by);
  assertBodyIdIsPathId('API', existing.api_id, info.id, 'body.x-gw-api-gateway.info.id');
  if (!existing.oas) throw new NotFound(`OAS API ${apiId} not found`);
  doc[GW_EXTENSION] = keepLinkedVersions(doc[GW_EXTENSION] as Obj, existing.oas[GW_EXTENSION] as Obj | undefined);
  const record = recordFromOas(doc, now(), existing);
  await checkDefinition(record, by);
  return replaceApiWithVersion(record, ifMatch, q, by);
}

/**
 * PUT /api/apis/{apiID}: replaces an API of the caller's organisation with a classic definition
 * (api_id and database id kept; a body naming another api_id is 400). An OAS API stays OAS: the
 * classic members replace what they map to in its x-gw-api-gateway, the rest of its document and
 * its linked versions stay.
 */
export async function replaceClassicApi(apiId: string, definition: Obj, ifMatch: IfMatch | undefined, by: { org: string }): Promise<ApiRecord> {
  const existing = await existingApi(apiId, by);
  assertBodyIdIsPathId('API', existing.api_id, definition.api_id, 'body.api_definition.api_id');
  const def = { ...definition, org_id: callerOrg(definition.org_id, by.org, 'body.api_definition.org_id') };
  const build = (previous: StoredApi): ApiRecord => {
    if (!previous.oas) return recordFromClassic(def, now(), previous);
    const stored = (previous.oas[GW_EXTENSION] ?? {}) as Obj;
    const converted = classicToOas(def) as Obj;
    const info = { ...((converted.info ?? {}) as Obj), id: previous.api_id, dbId: previous.id, orgId: by.org };
    const gateway = keepLinkedVersions({ ...stored, ...converted, info }, stored);
    return recordFromOas({ ...previous.oas, [GW_EXTENSION]: gateway }, now(), previous);
  };
  await checkDefinition(build(existing), by);
  return replaceApi(existing.api_id, ifMatch, async (previous) => {
    if (previous.org_id !== by.org) throw new NotFound(`API ${apiId} not found`);
    return { record: build(previous) };
  });
}

// --- versions (contract §8) --------------------------------------------------------------------

const unknownBase = (id: string) => new Unprocessable(`base API ${id} does not exist`, [{ path: 'query.base_api_id', message: 'unknown API' }]);

/** The base named by the query, in the child's organisation and in OAS form; 422 otherwise. */
async function loadBase(baseId: string, orgId: string, childApiId: string): Promise<StoredApi> {
  const base = await orgApi(orgId, baseId);
  if (!base) throw unknownBase(baseId);
  if (base.api_id === childApiId) {
    throw new Unprocessable('an API cannot be a version of itself', [{ path: 'query.base_api_id', message: 'is the API itself' }]);
  }
  if (!base.oas) {
    throw new Unprocessable(`base API ${baseId} is a classic API; only OAS APIs take OAS versions`, [{ path: 'query.base_api_id', message: 'not an OAS API' }]);
  }
  return base;
}

/**
 * Transaction items that rewrite `base` with a changed `x-gw-api-gateway`, guarded by its version:
 * a base that changed meanwhile is read again, If-Match or not, as it is not the object the client named.
 */
function baseItems(base: StoredApi, gateway: Obj, stamp: string): TxItem[] {
  const doc = { ...base.oas!, [GW_EXTENSION]: gateway };
  return saveApiItems(recordFromOas(doc, stamp, base), base, { subject: false });
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

/**
 * Replaces an API on the version it is read at (If-Match as for any update:
 * shared/store/db/versioned-write.ts); id and creation time stay. `build` makes the record, and
 * the items of other objects the change rewrites (a version's base), from the API as read, so a
 * lost race rebuilds them from what is read next.
 */
export function replaceApi(
  apiId: string,
  ifMatch: IfMatch | undefined,
  build: (previous: StoredApi) => Promise<{ record: ApiRecord; extra?: TxItem[] }>,
): Promise<ApiRecord> {
  return writeVersioned({
    what: `API ${apiId}`,
    ifMatch,
    read: () => loadApi(apiId),
    notFound: () => new NotFound(`API ${apiId} not found`),
    write: async (previous) => {
      const { record, extra } = await build(previous);
      const next = { ...record, id: previous.id, created_at: previous.created_at, version: previous.version + 1 };
      await saveApi(next, previous, extra);
      return next;
    },
  });
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
  if (!q.base_api_id) return insertApi(child);
  requireVersionName(q);
  const baseId = q.base_api_id;
  return retryWhileMoved(`base API ${baseId}`, undefined, async () => {
    const base = await loadBase(baseId, child.org_id, child.api_id);
    return insertApi({ ...child, base_api_id: base.api_id }, linkedBaseItems(base, child.api_id, q, now()));
  });
}

/**
 * Replaces `child` (If-Match as for any update); with `base_api_id` it becomes (or stays) a
 * version of that base. A child that moves to another base leaves its old base's version list in
 * the same transaction.
 */
async function replaceApiWithVersion(child: ApiRecord, ifMatch: IfMatch | undefined, q: VersionQuery, by: Writer): Promise<ApiRecord> {
  // A dashboard write replaces only what is still the caller's when it is written.
  const mine = (previous: StoredApi) => {
    if (by.org !== undefined && previous.org_id !== by.org) throw new NotFound(`API ${child.api_id} not found`);
  };
  if (!q.base_api_id) {
    return replaceApi(child.api_id, ifMatch, async (previous) => {
      mine(previous);
      return { record: child };
    });
  }
  requireVersionName(q);
  const baseId = q.base_api_id;
  // The base is read in every attempt, so a base that changed is read again with the child.
  return replaceApi(child.api_id, ifMatch, async (previous) => {
    mine(previous);
    const stamp = now();
    const base = await loadBase(baseId, child.org_id, child.api_id);
    const extra = linkedBaseItems(base, child.api_id, q, stamp);
    const oldBaseId = child.base_api_id;
    if (oldBaseId && oldBaseId !== base.api_id) {
      const oldBase = await loadApi(oldBaseId);
      if (oldBase?.oas) extra.push(...baseItems(oldBase, unlinkVersion((oldBase.oas[GW_EXTENSION] ?? {}) as Obj, child.api_id), stamp));
    }
    return { record: { ...child, base_api_id: base.api_id }, extra };
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
  const found = await loadApiSummaries(listed.map((v) => v.id));
  return listed.filter((v) => found.get(v.id)?.base_api_id === base.api_id).map((v) => `${v.id} (${v.name})`);
}

/**
 * The delete of `api` with its OAuth clients plus, for a version, its base without it (guarded by
 * the base's version, so a concurrent link or edit of the base is read again instead of being
 * overwritten).
 */
async function deleteItems(api: StoredApi): Promise<TxItem[]> {
  const clients = await removeClientItems(api.api_id);
  // One transaction holds at most 100 items; an API with very many clients asks for them first.
  if (clients.length > MAX_CLIENTS_IN_DELETE) {
    throw new Conflict(`API ${api.api_id} has ${clients.length} OAuth clients; delete them first (at most ${MAX_CLIENTS_IN_DELETE} go with the API)`);
  }
  const items = [...removeApiItems(api), ...clients];
  if (!api.base_api_id) return items;
  const base = await loadApi(api.base_api_id);
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
export async function deleteApi(apiId: string, ifMatch: IfMatch | undefined, by: Writer = {}): Promise<ApiRecord> {
  // A dashboard delete names the API by api_id or database id, and only the caller's.
  const target = by.org === undefined ? apiId : (await existingApi(apiId, by)).api_id;
  return writeVersioned({
    what: `API ${apiId}`,
    ifMatch,
    read: async () => {
      const api = await loadApi(target);
      return api && (by.org === undefined || api.org_id === by.org) ? api : undefined;
    },
    notFound: () => new NotFound(`API ${apiId} not found`),
    write: async (api) => {
      const children = await liveChildren(api);
      if (children.length > 0) {
        throw new Conflict(`API ${apiId} is the base of versions ${children.join(', ')}; delete or unlink its versions first`);
      }
      await writeItems(await deleteItems(api));
      return api;
    },
  });
}
