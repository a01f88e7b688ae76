/**
 * API definitions, OAS and classic. A file is the document (OAS, with its `x-gw-api-gateway`) or
 * the classic definition, known by its api_id, minus what the service owns: the database id, the
 * organisation, and a base's list of versions (each version's file says `version_of` instead, so a
 * version is one file and the list follows from the files).
 *
 * Transport: the dashboard group's `/api/apis` routes (OAS writes under `/api/apis/oas`).
 */
import { etagOf, GwctlError, must } from '../client';
import type { paths } from '../generated/api';
import { isObject, type ConfigObject, type Json, type JsonObject } from '../model';
import type { KindAdapter, Live } from './kind';
import { allPages } from './paging';

type OasWriteBody = paths['/api/apis/oas']['post']['requestBody']['content']['application/json'];
type ClassicBody = paths['/api/apis']['post']['requestBody']['content']['application/json'];

const GW = 'x-gw-api-gateway';
const isOas = (o: ConfigObject) => isObject(o.spec[GW]);
/** The extension's info of a copy being written, made when missing. */
const gwInfo = (spec: JsonObject): JsonObject => {
  const gw = spec[GW];
  if (!isObject(gw)) return {};
  if (!isObject(gw.info)) gw.info = {};
  return gw.info as JsonObject;
};
/** The extension's info, read only. */
const infoOf = (spec: JsonObject): JsonObject => {
  const gw = spec[GW];
  return isObject(gw) && isObject(gw.info) ? gw.info : {};
};
const keyOf = (o: ConfigObject) => String((isOas(o) ? infoOf(o.spec).id : o.spec.api_id) ?? '');
const ifMatchHeader = (ifMatch: string | undefined) => (ifMatch ? { 'If-Match': ifMatch } : {});

export const apis: KindAdapter = {
  kind: 'api',
  dir: 'apis',
  transport: 'dashboard: GET/POST /api/apis, GET/PUT/DELETE /api/apis/{apiID}, POST /api/apis/oas, PUT /api/apis/oas/{apiID}',
  schema: 'OasWriteDocument | ClassicApiInput',
  keyOf,
  fileOf: (o) => `apis/${keyOf(o)}.yaml`,
  tagsOf: (o) => {
    const gw = o.spec[GW];
    const tags = isOas(o) && isObject(gw) && isObject(gw.server) && isObject(gw.server.gatewayTags) ? gw.server.gatewayTags.tags : o.spec.tags;
    return Array.isArray(tags) ? tags.map(String) : [];
  },

  async read(ctx) {
    const entries = await allPages(async (cursor) => {
      const r = must(
        'list APIs',
        await ctx.clients.dashboard.GET('/api/apis', { params: { query: { page_size: 100, sort: 'created_at', ...(cursor ? { cursor } : {}) } } }),
      );
      return { items: r.apis, next_cursor: r.next_cursor };
    });
    // A version's base and name are on the base's list.
    const versionOf = new Map<string, { base: string; name: string }>();
    for (const e of entries) {
      const info = e.oas ? infoOf(e.oas as JsonObject) : {};
      const versions = isObject(info.versioning) ? info.versioning.versions : undefined;
      if (Array.isArray(versions)) for (const v of versions) if (isObject(v)) versionOf.set(String(v.id), { base: String(info.id), name: String(v.name) });
    }
    const lives: Live[] = [];
    for (const e of entries) {
      const live = e.oas ? fromOas(e.oas as JsonObject) : fromClassic(e.api_definition as JsonObject);
      const v = versionOf.get(live.key);
      if (v) live.object.version_of = v;
      // The listing carries no versions: one read each for the ETag that guards the update.
      const one = await ctx.clients.dashboard.GET('/api/apis/{apiID}', { params: { path: { apiID: live.key } } });
      must(`read API ${live.key}`, one);
      live.etag = etagOf(one);
      ctx.apiIds.push(live.key);
      lives.push(live);
    }
    return lives;
  },

  async create(ctx, o, idempotencyKey) {
    const header = { 'Idempotency-Key': idempotencyKey };
    if (isOas(o)) {
      const query = o.version_of ? { base_api_id: o.version_of.base, new_version_name: o.version_of.name } : {};
      must(`create API ${keyOf(o)}`, await ctx.clients.dashboard.POST('/api/apis/oas', { params: { query, header }, body: oasBody(o, {}) }));
    } else {
      if (o.version_of) throw new GwctlError(`API ${keyOf(o)}: only OAS APIs can be versions`);
      must(`create API ${keyOf(o)}`, await ctx.clients.dashboard.POST('/api/apis', { params: { header }, body: classicBody(o, {}) }));
    }
  },

  async update(ctx, live, o, ifMatch) {
    const params = { path: { apiID: live.key }, header: ifMatchHeader(ifMatch) };
    if (isOas(o) !== isOas(live.object)) throw new GwctlError(`API ${live.key}: an API cannot change between OAS and classic (delete it and create it again)`);
    const r = isOas(o)
      ? await ctx.clients.dashboard.PUT('/api/apis/oas/{apiID}', { params, body: oasBody(o, live.state) })
      : await ctx.clients.dashboard.PUT('/api/apis/{apiID}', { params, body: classicBody(o, live.state) });
    must(`update API ${live.key}`, r);
  },

  async remove(ctx, live, ifMatch) {
    must(
      `delete API ${live.key}`,
      await ctx.clients.dashboard.DELETE('/api/apis/{apiID}', { params: { path: { apiID: live.key }, header: ifMatchHeader(ifMatch) } }),
    );
  },
};

function fromOas(doc: JsonObject): Live {
  const spec = structuredClone(doc);
  const info = gwInfo(spec);
  const state: Record<string, unknown> = { dbId: info.dbId };
  delete info.dbId;
  delete info.orgId;
  if (isObject(info.versioning)) {
    state.versions = info.versioning.versions;
    delete info.versioning.versions;
  }
  return { key: String(info.id), object: { kind: 'api', spec }, state };
}

function fromClassic(def: JsonObject): Live {
  const spec = structuredClone(def);
  const state: Record<string, unknown> = { id: spec.id };
  for (const k of ['id', 'org_id', 'is_oas']) delete spec[k];
  return { key: String(spec.api_id), object: { kind: 'api', spec }, state };
}

/**
 * The document as the write takes it (the organisation is the caller's), and on a replace the
 * database id and the base's version list as the plan read them (the files leave them to the
 * service; a replace without them would drop the links its versions made).
 */
function oasBody(o: ConfigObject, state: Record<string, unknown>): OasWriteBody {
  const spec = structuredClone(o.spec);
  const info = gwInfo(spec);
  if (typeof state.dbId === 'string') info.dbId = state.dbId;
  if (Array.isArray(state.versions)) {
    if (!isObject(info.versioning)) info.versioning = {};
    (info.versioning as JsonObject).versions = state.versions as Json[];
  }
  // Checked against OasWriteDocument by validate before any write.
  return spec as unknown as OasWriteBody;
}

function classicBody(o: ConfigObject, state: Record<string, unknown>): ClassicBody {
  const spec: JsonObject = structuredClone(o.spec);
  if (typeof state.id === 'string') spec.id = state.id;
  // Checked against ClassicApiInput by validate before any write.
  return { api_definition: spec } as unknown as ClassicBody;
}
