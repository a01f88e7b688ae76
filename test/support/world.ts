/**
 * The one seeder: an organisation with one object of every kind, made through the public
 * routes, so suites work on real objects (the tenant, mass-assignment and concurrency suites) and
 * every route has an accepted request (the fuzz suite, the per-route walk that compares stages).
 * Every id is recorded, so lists can be compared as full id sets.
 */
import { randomBytes } from 'node:crypto';
import { RouteClient } from './route-client';
import { assetData, fullOrgFile, hookBody, importDoc, oasDoc, rightsFor, streamsDoc, STREAMS_TYPE, uid } from './fixtures';
import type { Stage } from './stage';

/** The day every world's analytics record falls on (key activity dates point at it). */
export const ACTIVITY_DAY = { day: '15', month: '3', year: '2024', iso: '2024-03-15T10:00:00Z' };

export interface World {
  tag: string;
  orgId: string;
  /** A domain granted to the organisation, on which its classic API listens. */
  domain: string;
  /** A gateway that reported what it serves. */
  gatewayId: string;
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
  adminKeyHash: string;
  clientId: string;
  hookId: string;
  /** The delivery of a Ping to the hook (pending: no stage of the hardening suites reads the change feed). */
  deliveryId: string;
  assetDbId: string;
  assetCustomId: string;
  /** A developer of the organisation's portal (open sign-up), its e-mail, and a session of it. */
  developerId: string;
  developerEmail: string;
  devToken: string;
  /** Two pending requests of that developer for the manual plan of the world's published OAS API. */
  requestIds: string[];
}

/** The password of every world's developer. */
const DEVELOPER_PASSWORD = 'world developer password';

/**
 * The organisation's portal: on (open sign-up), its OAS API published with an automatic plan
 * (`free`) and a manual one (`pro`) on its policy, a developer signed up and in, and two pending
 * requests of that developer for `pro`.
 */
async function buildPortal(c: RouteClient, orgId: string, apiId: string, policyId: string, tag: string) {
  const ok = async (method: string, url: string, body?: unknown) => (await c.ok(method, url, body)).body as any;
  await ok('PUT', '/api/portal/settings', { enabled: true, sign_up: 'open', title: `Portal ${tag}` });
  const plans = [
    { id: 'free', name: 'Free', policy_id: policyId, approval: 'auto' },
    { id: 'pro', name: 'Pro', policy_id: policyId, approval: 'manual' },
  ];
  await ok('PUT', `/api/portal/catalogue/${apiId}`, { plans });
  const email = `dev@portal-${tag}.example`.toLowerCase();
  await ok('POST', `/portal/${orgId}/developers`, { email_address: email, password: DEVELOPER_PASSWORD });
  const session = await ok('POST', `/portal/${orgId}/sessions`, { email_address: email, password: DEVELOPER_PASSWORD });
  c.devKey = session.Meta.token;
  const requestIds: string[] = [];
  for (let i = 0; i < 2; i++) requestIds.push((await ok('POST', `/portal/${orgId}/key-requests`, { api_id: apiId, plan_id: 'pro' })).Meta.request.id);
  return { developerId: session.Meta.developer.id as string, developerEmail: email, devToken: c.devKey, requestIds };
}

/**
 * Builds one organisation holding one object of every kind, all through the API. Ids derive from
 * `tag`, unique by default; a fixed tag gives two stages the same ids (walks that compare them).
 */
export async function buildWorld(on: Stage | RouteClient, label: string, tag = uid(label)): Promise<World> {
  const c = on instanceof RouteClient ? on : new RouteClient(on.url);
  const ok = async (method: string, url: string, body?: unknown, contentType?: string) => (await c.ok(method, url, body, { contentType })).body as any;
  const orgId = `org-${tag}`;
  await ok('POST', '/admin/organisations', { id: orgId, owner_name: label });
  const domain = `${tag}.example`.toLowerCase();
  await ok('PUT', `/admin/organisations/${orgId}/domains/${domain}`);
  const emails = [`owner@matrix-${tag}.example`, `second@matrix-${tag}.example`];
  const owner = await ok('POST', '/admin/users', { org_id: orgId, email_address: emails[0] });
  const second = await ok('POST', '/admin/users', { org_id: orgId, email_address: emails[1] });
  const key = owner.Meta.access_key as string;
  c.dashKey = key;
  // A gateway following the routing table reports what it serves.
  const routing = await ok('GET', '/gw/routing/version');
  const gatewayId = `edge-${tag}`;
  await ok('PUT', `/gw/gateways/${gatewayId}`, {
    kind: 'nginx',
    version: routing.version,
    changed_at: routing.changed_at,
    applied_at: new Date().toISOString(),
    failures: 0,
    last_error: null,
    skipped: [],
  });

  const apiId = `oas-${tag}`;
  await ok('POST', '/gw/apis/oas', oasDoc(apiId, orgId));
  const apiDbId = (await ok('GET', `/gw/apis/${apiId}`)).id as string;
  const classicApiId = `classic-${tag}`;
  await ok('POST', '/gw/apis', {
    api_id: classicApiId,
    name: 'classic',
    org_id: orgId,
    domain,
    proxy: { listen_path: `/${classicApiId}/`, target_url: 'http://upstream.example' },
  });
  // Listen paths are unique per domain across organisations: each world's import takes its own.
  const imported = await ok('POST', `/api/apis/oas/import?listenPath=/imported-${tag}/`, JSON.stringify(importDoc(`Imported ${tag}`)), 'application/json');
  const policyId = `pol-${tag}`;
  await ok('POST', '/gw/policies', { id: policyId, name: 'Gold', org_id: orgId, rate: 10, per: 1, access_rights: rightsFor(apiId) });
  const username = `user-${tag}`;
  const gw = await ok('POST', '/gw/keys/create', {
    org_id: orgId,
    access_rights: rightsFor(apiId),
    quota_max: 100,
    quota_renewal_rate: 3600,
    alias: 'gw',
    basic_auth_data: { user: username, password: 'pw-123456' },
  });
  const admin = await ok('POST', '/admin/org/keys', { org_id: orgId, access_rights: rightsFor(apiId), alias: 'admin' });
  const clientId = `client-${tag}`;
  await ok('POST', '/gw/oauth/clients/create', { api_id: apiId, redirect_uri: 'https://app.example/cb', client_id: clientId, policy_id: policyId });
  const hook = await ok('POST', '/api/hooks', hookBody('hook'));
  const ping = await ok('POST', `/api/hooks/${hook.Meta}/test`);
  const assetCustomId = `asset-${tag}`;
  const asset = await ok('POST', '/api/assets', { id: assetCustomId, name: 'T', data: assetData('T') });
  await ok('POST', '/gw/analytics', {
    records: [
      {
        api_id: apiId,
        path: '/x',
        method: 'GET',
        response_code: 200,
        key_hash: gw.key_hash,
        org_id: orgId,
        timestamp: ACTIVITY_DAY.iso,
        request_time: 5,
        latency: { total: 5, upstream: 3 },
      },
    ],
  });
  const portal = await buildPortal(c, orgId, apiId, policyId, tag);
  return {
    ...portal,
    tag,
    orgId,
    domain,
    gatewayId,
    key,
    emails,
    userIds: [owner.Meta.id, second.Meta.id],
    apiId,
    apiDbId,
    classicApiId,
    importedApiId: imported.ID,
    policyId,
    gwKey: gw.key,
    gwKeyHash: gw.key_hash,
    username,
    adminKey: admin.key_id,
    adminKeyHash: admin.key_hash,
    clientId,
    hookId: hook.Meta,
    deliveryId: ping.Meta.delivery_id,
    assetDbId: asset.Meta,
    assetCustomId,
  };
}

/** A world in which every route of the table has answered 2xx once (the fuzz suite breaks those requests). */
export interface SeededWorld {
  world: World;
  /** A value for each path parameter name of the table that names one of the world's objects. */
  params: Record<string, string>;
}

/**
 * The world, then a success on each route it did not use yet: user update and access-key
 * rotation (on the second user), a streams patch (of an API of its own), policy import, the
 * organisation session, a dashboard key update, the check, and the list reads with a query.
 */
export async function seedEveryRoute(c: RouteClient, label: string, tag?: string, opts: { keepSelfService?: boolean } = {}): Promise<SeededWorld> {
  const w = await buildWorld(c, label, tag);
  const second = w.userIds[1]!;
  await c.ok('PUT', `/admin/users/${second}`, { email_address: w.emails[1], active: true, first_name: 'S' });
  await c.ok('POST', `/admin/users/${second}/access-key`);
  const streams = `streams-${w.tag}`;
  await c.ok('POST', '/gw/apis/oas', oasDoc(streams, w.orgId));
  await c.ok('PATCH', `/api/apis/streams/${streams}`, JSON.stringify(streamsDoc(streams)), { contentType: STREAMS_TYPE });
  await c.ok('POST', '/admin/policies/import', { Data: [{ id: `imported-${w.tag}`, name: 'Imported', org_id: w.orgId, rate: 5, per: 1 }] });
  await c.ok('PUT', `/gw/org/keys/${w.orgId}`, { quota_max: 1_000_000, quota_renewal_rate: 3600 });
  const got = await c.ok('GET', `/gw/keys/${w.gwKey}`);
  await c.ok('PUT', `/api/apis/${w.apiId}/keys/${w.gwKey}?suppress_reset=1`, got.body);
  await c.ok('POST', '/gw/sessions/check', { key: w.gwKey, api_id: w.apiId, path: '/x', method: 'GET' });
  await c.ok('GET', '/api/users/search?q=matrix&page_size=10');
  await c.ok('GET', '/api/apis?p=1&page_size=10&sort=name');
  await c.ok('GET', `/gw/apis/oas/${w.apiId}?mode=public`);
  await c.ok('POST', `/api/hooks/${w.hookId}/signing-secret`);
  await c.ok('POST', `/api/hooks/${w.hookId}/deliveries/${w.deliveryId}/redeliver`);
  // Offboarding on an organisation of its own: the world's must stay.
  const leaving = `leaving-${w.tag}`;
  await c.ok('POST', '/admin/organisations', { id: leaving });
  await c.ok('DELETE', `/admin/organisations/${leaving}`);
  await c.ok('GET', `/admin/organisations/${leaving}/offboarding`);
  // An import: a file of an organisation of its own, one object of each kind.
  const moved = fullOrgFile(`moved-${w.tag}`);
  // Its API over an item's size (incompressible config data): the definition rides in parts (api_part).
  Object.assign(moved.apis[0]!.classic, { config_data: { blob: randomBytes(360_000).toString('base64') } });
  await c.ok('POST', '/admin/organisations/import', moved);
  // And one written in the background, which its own route follows.
  await c.ok('POST', '/admin/organisations/import?background=true', fullOrgFile(`moved-later-${w.tag}`));
  await c.ok('GET', `/admin/organisations/moved-later-${w.tag}/import`);
  const { day, month, year } = ACTIVITY_DAY;
  const dashKeyHash = await seedSelfService(c, w, opts.keepSelfService);
  const collectedRequestId = await seedPortal(c, w, opts.keepSelfService);
  // A forwarded request the external-authorization route allows: the world's key on its API.
  const forwarded = await c.send('GET', `/gw/ext-authz/${w.apiId}/probe`, { headers: { authorization: w.gwKey, 'x-gw-api-id': w.apiId } });
  if (forwarded.status !== 200) throw new Error(`ext-authz seed: ${forwarded.status} ${forwarded.text}`);
  const params = {
    orgID: w.orgId,
    domain: w.domain,
    gatewayID: w.gatewayId,
    apiID: w.apiId,
    policyID: w.policyId,
    assetID: w.assetCustomId,
    clientID: w.clientId,
    keyRef: w.gwKey,
    keyHash: w.gwKeyHash,
    hookID: w.hookId,
    deliveryID: w.deliveryId,
    userID: second,
    developerID: w.developerId,
    requestID: collectedRequestId,
    'proxy+': `${w.apiId}/probe`,
    startDay: day,
    startMonth: month,
    startYear: year,
    EndDay: day,
    EndMonth: month,
    EndYear: year,
    // Not a path parameter: the hash the self-service key got, written back by name when walks compare.
    dashKeyHash,
  };
  return { world: w, params };
}

/**
 * A success on each self-service route (contract §9a), on objects of their own: their key routes take
 * the hash of a key made for them, and their deletes would otherwise
 * take the world's objects from the gateway routes' deletes. Answers the hash of the key it made.
 * With `keep`, nothing is deleted, so the requests recorded for the other routes still find their
 * objects (a walk that sends them again asks for it).
 */
async function seedSelfService(c: RouteClient, w: World, keep = false): Promise<string> {
  const { day, month, year } = ACTIVITY_DAY;
  const range = `${day}/${month}/${year}/${day}/${month}/${year}`;
  const api = `dash-${w.tag}`;
  await c.ok('POST', '/api/apis', { api_definition: { api_id: api, name: 'dash', proxy: { listen_path: `/${api}/`, target_url: 'http://upstream.example' } } });
  const entry = (await c.ok('GET', `/api/apis/${api}`)).body as any;
  await c.ok('PUT', `/api/apis/${api}`, { api_definition: entry.api_definition });
  const oas = `dash-oas-${w.tag}`;
  await c.ok('POST', '/api/apis/oas', oasDoc(oas, w.orgId));
  await c.ok('PUT', `/api/apis/oas/${oas}`, (await c.ok('GET', `/api/apis/oas/${oas}`)).body);
  const policy = `dash-pol-${w.tag}`;
  await c.ok('POST', '/api/portal/policies', { id: policy, name: 'Dash', access_rights: rightsFor(api) });
  await c.ok('PUT', `/api/portal/policies/${policy}`, (await c.ok('GET', `/api/portal/policies/${policy}`)).body);
  const key = (await c.ok('POST', '/api/keys', { access_rights: rightsFor(api), quota_max: 10, quota_renewal_rate: 3600 })).body as any;
  const session = (await c.ok('GET', `/api/keys/${key.key_hash}`)).body as any;
  await c.ok('PUT', `/api/keys/${key.key_hash}?reset_quota=1`, session.data);
  await c.ok('GET', '/api/keys?p=1&page_size=10');
  await c.ok('GET', '/api/portal/policies?p=1&page_size=10');
  const client = `dash-client-${w.tag}`;
  await c.ok('POST', `/api/apis/oauth/${api}`, { redirect_uri: 'https://app.example/cb', client_id: client, policy_id: policy });
  await c.ok('GET', `/api/apis/oauth/${api}?p=1&page_size=10`);
  await c.ok('PUT', `/api/apis/oauth/${api}/${client}`, { redirect_uri: 'https://app.example/cb2' });
  await c.ok('GET', `/api/usage/apis/${w.apiId}/${range}?resolution=hour`);
  await c.ok('GET', `/api/usage/keys/${w.gwKeyHash}/${range}?resolution=day`);
  await c.ok('GET', '/api/users/me');
  if (!keep) {
    // A second client goes with its API: the dashboard delete's grant covers OAuth clients.
    await c.ok('POST', `/api/apis/oauth/${api}`, { redirect_uri: 'https://app.example/cb', client_id: `dash-client-2-${w.tag}`, policy_id: policy });
    await c.ok('DELETE', `/api/apis/oauth/${api}/${client}`);
    await c.ok('DELETE', `/api/keys/${key.key_hash}`);
    await c.ok('DELETE', `/api/portal/policies/${policy}`);
    await c.ok('DELETE', `/api/apis/${api}`);
  }
  return key.key_hash as string;
}

/**
 * A success on each portal route the world did not use yet: its reads, an invitation and a
 * sign-up with it, an automatic key (used, listed, rolled and, unless `keep`, revoked), a pending
 * request approved and its key collected, another refused, a developer's state set, a classic API
 * published and (unless `keep`) unpublished, and a second session signed out (the world's stays).
 * Answers the id of the request whose key was collected.
 */
async function seedPortal(c: RouteClient, w: World, keep = false): Promise<string> {
  const ok = async (method: string, url: string, body?: unknown) => (await c.ok(method, url, body)).body as any;
  const portal = `/portal/${w.orgId}`;
  await ok('GET', '/api/portal/settings');
  await ok('GET', '/api/portal/catalogue');
  await ok('GET', `${portal}/catalogue`);
  await ok('GET', `${portal}/catalogue/${w.apiId}/openapi`);
  await ok('GET', '/api/portal/developers?state=active');
  await ok('PUT', `/api/portal/developers/${w.developerId}`, { state: 'active' });
  const invited = `invited@portal-${w.tag}.example`.toLowerCase();
  const invitation = (await ok('POST', '/api/portal/invitations', { email_address: invited })).Meta.invitation;
  await ok('POST', `${portal}/developers`, { email_address: invited, password: DEVELOPER_PASSWORD, invitation });
  await ok('GET', `${portal}/developer`);
  const auto = (await ok('POST', `${portal}/key-requests`, { api_id: w.apiId, plan_id: 'free' })).Meta;
  await ok('GET', '/api/portal/key-requests?state=pending');
  const [collected, refused] = w.requestIds as [string, string];
  await ok('POST', `/api/portal/key-requests/${collected}/approve`);
  await ok('POST', `${portal}/key-requests/${collected}/key`);
  await ok('POST', `/api/portal/key-requests/${refused}/refuse`, { reason: 'Not this time' });
  await ok('GET', `${portal}/key-requests`);
  await ok('GET', `${portal}/keys`);
  await ok('GET', `${portal}/keys/${auto.key_hash}/usage?days=7`);
  const rolled = (await ok('POST', `${portal}/keys/${auto.key_hash}/roll`)).Meta;
  // A classic API of the world published on a policy of its own that grants it.
  const policy = `portal-pol-${w.tag}`;
  await ok('POST', '/api/portal/policies', { id: policy, name: 'Portal', access_rights: rightsFor(w.classicApiId) });
  await ok('PUT', `/api/portal/catalogue/${w.classicApiId}`, { plans: [{ id: 'basic', name: 'Basic', policy_id: policy, approval: 'auto' }] });
  const second = (await ok('POST', `${portal}/sessions`, { email_address: w.developerEmail, password: DEVELOPER_PASSWORD })).Meta.token;
  await c.ok('DELETE', `${portal}/session`, undefined, { headers: { authorization: `Bearer ${second}` } });
  if (!keep) {
    await ok('DELETE', `${portal}/keys/${rolled.key_hash}`);
    await ok('DELETE', `/api/portal/catalogue/${w.classicApiId}`);
  }
  return collected;
}
