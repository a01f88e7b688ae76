/**
 * Request bodies and objects the suites share, so each document shape is written once: an OAS
 * definition, an import document, a streams patch, a template, a webhook, key rights.
 */
import { createHash, randomBytes } from 'node:crypto';
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

/** An organisation's file (shared/schemas/organisation-file.ts) with nothing in it but the organisation. */
export function emptyOrgFile(orgId: string, stamp = new Date().toISOString()) {
  return {
    format: 'gw-organisation',
    version: 1,
    organisation: { id: orgId, owner_name: orgId, created_at: stamp, updated_at: stamp },
    domains: [] as unknown[],
    organisation_session: null as unknown,
    apis: [] as unknown[],
    policies: [] as unknown[],
    oauth_clients: [] as unknown[],
    keys: [] as unknown[],
    webhooks: [] as unknown[],
    templates: [] as unknown[],
    users: [] as unknown[],
  };
}

/** An organisation's file with one object of each kind, its ids made from `orgId`: one import of it succeeds. */
export function fullOrgFile(orgId: string) {
  const stamp = new Date().toISOString();
  const hex = () => randomBytes(12).toString('hex');
  const apiId = `${orgId}-api`;
  return {
    ...emptyOrgFile(orgId, stamp),
    organisation_session: { session: { org_id: orgId, quota_max: 100, quota_renewal_rate: 60 }, last_updated: stamp },
    apis: [
      {
        id: hex(),
        api_id: apiId,
        org_id: orgId,
        name: 'moved',
        kind: 'classic',
        classic: {
          api_id: apiId,
          name: 'moved',
          org_id: orgId,
          active: true,
          proxy: { listen_path: `/${apiId}/`, target_url: 'http://u.example', strip_listen_path: true },
        },
        categories: [],
        created_at: stamp,
        updated_at: stamp,
      },
    ],
    policies: [{ id: `${orgId}-pol`, _id: hex(), org_id: orgId, name: 'p', rate: 5, per: 1, date_created: stamp, last_updated: stamp }],
    oauth_clients: [
      {
        client_id: `${orgId}-client`,
        api_id: apiId,
        org_id: orgId,
        secret_hash: 'a'.repeat(64),
        redirect_uri: 'https://a.example/cb',
        created_at: stamp,
        updated_at: stamp,
      },
    ],
    keys: [{ session: { key_hash: createHash('sha256').update(orgId).digest('hex'), org_id: orgId, date_created: stamp, last_updated: stamp, quota_max: 10 } }],
    webhooks: [{ ...hookBody('moved'), id: hex(), org_id: orgId, created_at: stamp, updated_at: stamp }],
    templates: [
      {
        _id: hex(),
        id: `${orgId}-tpl`,
        name: 't',
        description: '',
        kind: 'oas-template',
        org_id: orgId,
        data: assetData('t'),
        created_at: stamp,
        last_updated: stamp,
      },
    ],
    users: [
      {
        id: hex(),
        org_id: orgId,
        email_address: `m@${orgId}.example`,
        email_lower: `m@${orgId}.example`,
        active: true,
        user_permissions: {},
        created_at: stamp,
      },
    ],
  };
}
