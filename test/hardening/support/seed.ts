/**
 * A tenant with one object of every kind, made through the API, so path parameters name real
 * objects (a validation gap would then really change something) and every route has an accepted
 * request to fuzz from. Each step is independent: a step whose route is missing is reported,
 * and the fuzzer falls back to a schema sample for that route.
 */
import type { FuzzClient } from './client';

export interface Seeded {
  orgId: string;
  /** Valid value of each path parameter name used in the route table. */
  params: Record<string, string>;
  problems: string[];
}

const oasDoc = (id: string, orgId: string) => ({
  openapi: '3.0.3',
  info: { title: id, version: '1' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id, orgId, name: id, state: { active: true } },
    server: { listenPath: { value: `/${id}/`, strip: true } },
    upstream: { url: 'https://up.example.com' },
  },
});

const importDoc = {
  openapi: '3.0.3',
  info: { title: 'Fuzz import', version: '1.0.0' },
  servers: [{ url: 'https://up.example.com' }],
  paths: { '/p': { get: { responses: { '200': { description: 'ok' } } } } },
};

export const streamsDoc = (apiId: string) => ({
  openapi: '3.0.3',
  info: { title: 'Streams', version: '1.0.0' },
  paths: {},
  'x-gw-api-gateway': {
    info: { id: apiId, name: 'Streams API', state: { active: true, internal: false } },
    server: { listenPath: { value: '/fz-streams/', strip: true } },
  },
  'x-gw-streaming': { streams: { in: { input: { http_server: { path: '/in' } } } } },
});

const rights = (apiId: string) => ({ [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'] } });

export async function seedTenant(c: FuzzClient): Promise<Seeded> {
  const orgId = 'fz-org';
  const api = 'fz-api';
  const params: Record<string, string> = {
    orgID: orgId, apiID: api, policyID: 'fz-policy', assetID: 'fz-asset', clientID: 'fz-client',
    keyID: 'abc123', keyHash: 'abc123', hookID: 'abc123', userID: 'abc123',
    startDay: '1', startMonth: '1', startYear: '2024', EndDay: '2', EndMonth: '1', EndYear: '2024',
  };
  const problems: string[] = [];
  const step = async (name: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      problems.push(`${name}: ${(e as Error).message}`);
    }
  };

  await step('organisation', () => c.ok('POST', '/admin/organisations', { id: orgId, owner_name: 'Fuzz Org' }));
  await step('user', async () => {
    const u = await c.ok('POST', '/admin/users', { org_id: orgId, email_address: 'owner@fuzz.example', first_name: 'F' });
    c.dashKey = (u.body as any).Meta.access_key;
  });
  await step('second user', async () => {
    const u = await c.ok('POST', '/admin/users', { org_id: orgId, email_address: 'second@fuzz.example' });
    params.userID = (u.body as any).Meta.id;
  });
  // On the second user: the first one's key is the fuzzer's dashboard credential.
  await step('user update', () => c.ok('PUT', `/admin/users/${params.userID}`, { email_address: 'second@fuzz.example', active: true, first_name: 'S' }));
  await step('access key rotation', () => c.ok('POST', `/admin/users/${params.userID}/access-key`));
  await step('OAS API', () => c.ok('POST', '/gw/apis/oas', oasDoc(api, orgId)));
  await step('streams API', () => c.ok('POST', '/gw/apis/oas', oasDoc('fz-streams', orgId)));
  await step('classic API', () =>
    c.ok('POST', '/gw/apis', { api_id: 'fz-classic', name: 'classic', org_id: orgId, proxy: { listen_path: '/fz-classic/', target_url: 'http://upstream.example' } }));
  await step('policy', () =>
    c.ok('POST', '/gw/policies', { id: 'fz-policy', name: 'Gold', org_id: orgId, rate: 10, per: 1, quota_max: 1000, access_rights: rights(api) }));
  await step('policy import', () => c.ok('POST', '/admin/policies/import', { Data: [{ id: 'fz-imported', name: 'Imported', org_id: orgId, rate: 5, per: 1 }] }));
  await step('gateway key', async () => {
    const k = await c.ok('POST', '/gw/keys/create', { org_id: orgId, access_rights: rights(api), quota_max: 100_000, quota_renewal_rate: 3600, alias: 'fz' });
    params.keyID = (k.body as any).key;
    params.keyHash = (k.body as any).key_hash;
  });
  await step('admin key', () => c.ok('POST', '/admin/org/keys', { org_id: orgId, access_rights: rights(api), alias: 'admin-made' }));
  await step('organisation session', () => c.ok('PUT', `/gw/org/keys/${orgId}`, { quota_max: 1_000_000, quota_renewal_rate: 3600 }));
  await step('dashboard key update', async () => {
    const got = await c.ok('GET', `/gw/keys/${params.keyID}`);
    await c.ok('PUT', `/api/apis/${api}/keys/${params.keyID}?suppress_reset=1`, got.body);
  });
  await step('session check', () => c.ok('POST', '/gw/sessions/check', { key: params.keyID, api_id: api, path: '/x', method: 'GET' }));
  await step('OAuth client', () =>
    c.ok('POST', '/gw/oauth/clients/create', { api_id: api, redirect_uri: 'https://app.example/cb', client_id: 'fz-client', policy_id: 'fz-policy', description: 'fz' }));
  await step('webhook', async () => {
    const h = await c.ok('POST', '/api/hooks', { name: 'fz', method: 'POST', target_path: 'https://hooks.example/x', header_map: { 'x-a': 'b' }, event_timeout: 5 });
    params.hookID = (h.body as any).Meta;
  });
  await step('asset', () =>
    c.ok('POST', '/api/assets', { id: 'fz-asset', name: 'Template', description: 'd', kind: 'oas-template', data: { 'x-gw-api-gateway': { info: { name: 'tpl' } } } }));
  await step('import', () => c.ok('POST', '/api/apis/oas/import?listenPath=/imported/', JSON.stringify(importDoc), { contentType: 'application/json' }));
  await step('streams patch', () =>
    c.ok('PATCH', `/api/apis/streams/fz-streams`, JSON.stringify(streamsDoc('fz-streams')), { contentType: 'application/vnd.gw.streams.oas' }));
  await step('analytics', () =>
    c.ok('POST', '/gw/analytics', {
      records: [{
        api_id: api, path: '/x', method: 'GET', response_code: 200, key_hash: params.keyHash, org_id: orgId,
        timestamp: '2024-01-01T10:00:00Z', request_time: 5, latency: { total: 5, upstream: 3 },
      }],
    }));
  // Queries that read lists, so list routes have a base with a query too.
  await step('user search', () => c.ok('GET', '/api/users/search?q=fuzz&page_size=10'));
  await step('API list', () => c.ok('GET', '/api/apis?p=1&page_size=10&sort=name'));
  await step('OAS get', () => c.ok('GET', `/gw/apis/oas/${api}?mode=public`));
  return { orgId, params, problems };
}
