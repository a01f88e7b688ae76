/**
 * Request bodies and objects the suites share, so each document shape is written once: an OAS
 * definition, an import document, a streams patch, a template, a webhook, key rights.
 */
import type { Stage } from './stage';

type Any = Record<string, unknown>;

let n = 0;

/** Unique per run and per call, so files sharing one DynamoDB Local never collide. */
export const uid = (p: string) => `${p}-${process.pid}-${++n}-${Date.now().toString(36)}`;

/** An access entry per API, as keys and policies name them. */
export const rightsFor = (...apiIds: string[]) => Object.fromEntries(apiIds.map((id) => [id, { api_id: id, api_name: id, versions: ['Default'] }]));

/**
 * A minimal OAS definition with the gateway extension, listening on `/<id>/` (on no listen path
 * when the id is blank: `/` alone is refused on the shared hosts, contract §13). `title` names the
 * document and the API; `info` joins x-gw-api-gateway.info (versioning...), `gateway` the extension.
 */
export const oasDoc = (id: string, orgId: string, o: { title?: string; info?: Any; gateway?: Any } = {}) => ({
  openapi: '3.0.3',
  info: { title: o.title ?? id, version: '1' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id, orgId, name: o.title ?? id, state: { active: true }, ...(o.info ?? {}) },
    server: id ? { listenPath: { value: `/${id}/`, strip: true } } : {},
    upstream: { url: 'https://up.example.com' },
    ...(o.gateway ?? {}),
  },
});

/** A plain OpenAPI document for POST /api/apis/oas/import (one operation, one server). */
export const importDoc = (title: string) => ({
  openapi: '3.0.3',
  info: { title, version: '1.0.0' },
  servers: [{ url: 'https://up.example.com' }],
  paths: { '/p': { get: { responses: { '200': { description: 'ok' } } } } },
});

export const STREAMS_TYPE = 'application/vnd.gw.streams.oas';

/** A streams patch for `apiId`, moving it to `/<apiId>-streams/`. */
export const streamsDoc = (apiId: string, info: Any = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Streams', version: '1.0.0' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id: apiId, name: 'Streams API', state: { active: true, internal: false }, ...info },
    server: { listenPath: { value: `/${apiId}-streams/`, strip: true } },
  },
  'x-gw-streaming': { streams: { in: { input: { http_server: { path: '/in' } } } } },
});

/** A template's data. */
export const assetData = (title: string) => ({ openapi: '3.0.3', info: { title, version: '1' }, paths: {} });

export const hookBody = (name: string) => ({ name, method: 'POST', target_path: 'https://hooks.example/x', header_map: { 'x-a': 'b' } });

/** A classic API in `orgId`, created through the gateway route; answers its api_id. */
export async function makeApi(s: Stage, orgId: string, name = 'api'): Promise<string> {
  const apiId = `${name}-${process.pid}-${++n}-${Date.now().toString(36)}`;
  const r = await s.gw('POST', '/gw/apis', { api_id: apiId, name, org_id: orgId, proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' } });
  if (r.status !== 200) throw new Error(`API create failed: ${JSON.stringify(r.body)}`);
  return apiId;
}

/** A key through POST /gw/keys/create; answers the clear key and its hash. */
export async function makeKey(s: Stage, session: Record<string, unknown>): Promise<{ key: string; hash: string }> {
  const r = await s.gw('POST', '/gw/keys/create', session);
  if (r.status !== 200) throw new Error(`key create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { key: r.body.key, hash: r.body.key_hash };
}
