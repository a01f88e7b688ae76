/**
 * A tenant with one object of every kind, made through the public routes, so the tenant,
 * mass-assignment and concurrency suites work on real objects. Every id is recorded, so lists can
 * be compared as full id sets.
 */
import type { Stage } from '../../support/stage';

export const rights = (...apiIds: string[]) =>
  Object.fromEntries(apiIds.map((id) => [id, { api_id: id, api_name: id, versions: ['Default'] }]));

export const oasDoc = (id: string, orgId: string, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: id, version: '1' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id, orgId, name: id, state: { active: true } },
    server: { listenPath: { value: `/${id}/`, strip: true } },
    upstream: { url: 'https://up.example.com' },
    ...extra,
  },
});

export const importDoc = (title: string) => ({
  openapi: '3.0.3',
  info: { title, version: '1.0.0' },
  servers: [{ url: 'https://up.example.com' }],
  paths: { '/p': { get: { responses: { '200': { description: 'ok' } } } } },
});

export const streamsDoc = (apiId: string, info: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 'Streams', version: '1.0.0' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id: apiId, name: 'Streams API', state: { active: true, internal: false }, ...info },
    server: { listenPath: { value: `/${apiId}-streams/`, strip: true } },
  },
  'x-gw-streaming': { streams: { in: { input: { http_server: { path: '/in' } } } } },
});

export const STREAMS_TYPE = 'application/vnd.gw.streams.oas';
export const assetData = (title: string) => ({ openapi: '3.0.3', info: { title, version: '1' }, paths: {} });
export const hookBody = (name: string) => ({ name, method: 'POST', target_path: 'https://hooks.example/x', header_map: { 'x-a': 'b' } });

/** The day every world's analytics record falls on (key activity dates point at it). */
export const ACTIVITY_DAY = { day: '15', month: '3', year: '2024', iso: '2024-03-15T10:00:00Z' };

export interface World {
  tag: string;
  orgId: string;
  /** The owner's dashboard access key. */
  key: string;
  userIds: string[];
  emails: string[];
  /** OAS API (api_id) and its database id; a classic API; an imported API. */
  apiId: string;
  apiDbId: string;
  classicApiId: string;
  importedApiId: string;
  policyId: string;
  /** A gateway key (clear), its hash, its basic-auth user name. */
  gwKey: string;
  gwKeyHash: string;
  username: string;
  adminKey: string;
  clientId: string;
  hookId: string;
  assetDbId: string;
  assetCustomId: string;
}

let seq = 0;
/** Unique per run and per call, so files sharing one DynamoDB Local never collide. */
export const uid = (p: string) => `${p}-${process.pid}-${++seq}-${Date.now().toString(36)}`;

async function ok(r: Promise<{ status: number; body: any }>, what: string) {
  const a = await r;
  if (a.status !== 200) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body;
}

/** Builds one organisation holding one object of every kind, all through the API. */
export async function buildWorld(s: Stage, label: string): Promise<World> {
  const tag = uid(label);
  const orgId = `org-${tag}`;
  await ok(s.admin('POST', '/admin/organisations', { id: orgId, owner_name: label }), 'organisation');
  const emails = [`owner@matrix-${tag}.example`, `second@matrix-${tag}.example`];
  const owner = await ok(s.admin('POST', '/admin/users', { org_id: orgId, email_address: emails[0] }), 'user');
  const second = await ok(s.admin('POST', '/admin/users', { org_id: orgId, email_address: emails[1] }), 'second user');
  const key = owner.Meta.access_key as string;

  const apiId = `oas-${tag}`;
  await ok(s.gw('POST', '/gw/apis/oas', oasDoc(apiId, orgId)), 'OAS API');
  const apiDbId = (await ok(s.gw('GET', `/gw/apis/${apiId}`), 'API read')).id as string;
  const classicApiId = `classic-${tag}`;
  await ok(
    s.gw('POST', '/gw/apis', { api_id: classicApiId, name: 'classic', org_id: orgId, proxy: { listen_path: `/${classicApiId}/`, target_url: 'http://upstream.example' } }),
    'classic API',
  );
  // Listen paths are unique per domain across organisations: each world's import takes its own.
  const imported = await ok(
    s.dash(key, 'POST', `/api/apis/oas/import?listenPath=/imported-${tag}/`, JSON.stringify(importDoc(`Imported ${tag}`)), { 'content-type': 'application/json' }),
    'import',
  );
  const policyId = `pol-${tag}`;
  await ok(s.gw('POST', '/gw/policies', { id: policyId, name: 'Gold', org_id: orgId, rate: 10, per: 1, access_rights: rights(apiId) }), 'policy');
  const username = `user-${tag}`;
  const gw = await ok(
    s.gw('POST', '/gw/keys/create', { org_id: orgId, access_rights: rights(apiId), quota_max: 100, quota_renewal_rate: 3600, alias: 'gw', basic_auth_data: { user: username, password: 'pw-123456' } }),
    'gateway key',
  );
  const admin = await ok(s.admin('POST', '/admin/org/keys', { org_id: orgId, access_rights: rights(apiId), alias: 'admin' }), 'admin key');
  const clientId = `client-${tag}`;
  await ok(s.gw('POST', '/gw/oauth/clients/create', { api_id: apiId, redirect_uri: 'https://app.example/cb', client_id: clientId, policy_id: policyId }), 'OAuth client');
  const hook = await ok(s.dash(key, 'POST', '/api/hooks', hookBody('hook')), 'hook');
  const assetCustomId = `asset-${tag}`;
  const asset = await ok(s.dash(key, 'POST', '/api/assets', { id: assetCustomId, name: 'T', data: assetData('T') }), 'asset');
  await ok(
    s.gw('POST', '/gw/analytics', {
      records: [{
        api_id: apiId, path: '/x', method: 'GET', response_code: 200, key_hash: gw.key_hash, org_id: orgId,
        timestamp: ACTIVITY_DAY.iso, request_time: 5, latency: { total: 5, upstream: 3 },
      }],
    }),
    'analytics',
  );
  return {
    tag, orgId, key, emails, userIds: [owner.Meta.id, second.Meta.id], apiId, apiDbId, classicApiId, importedApiId: imported.ID,
    policyId, gwKey: gw.key, gwKeyHash: gw.key_hash, username, adminKey: admin.key_id, clientId, hookId: hook.Meta,
    assetDbId: asset.Meta, assetCustomId,
  };
}
