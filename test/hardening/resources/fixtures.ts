/**
 * Per-route fixtures for the concurrency suite, keyed by route name. The suite takes the route
 * names from the table (etag: true, idempotent: true) and fails on a route missing here.
 */
import type { Answer, Stage } from '../../support/stage';
import { assetData, hookBody, importDoc, oasDoc, rightsFor, STREAMS_TYPE, streamsDoc, uid } from '../../support/fixtures';
import type { World } from '../../support/world';

export interface Guarded {
  /** The route's write, with If-Match when given. */
  call(ifMatch?: string): Promise<Answer>;
  /** The object's current ETag. */
  etag(): Promise<string>;
  /** Another write (no If-Match) that moves the version on. */
  bump(): Promise<void>;
  /** Whether the object still exists. */
  exists(): Promise<boolean>;
  /** The object's dashboard path, where it has one. */
  path?: string;
}

const must = async (p: Promise<Answer>, what: string) => {
  const r = await p;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
};
const etagOf = async (p: Promise<Answer>, what: string) => (await must(p, what)).headers.get('etag')!;
const im = (ifMatch?: string): Record<string, string> => (ifMatch ? { 'if-match': ifMatch } : {});

/** An object behind each If-Match route, made fresh for each use. */
export const GUARDED: Record<string, (s: Stage, w: World) => Promise<Guarded>> = {
  async oasUpdate(s, w) {
    const id = uid('c-oas');
    await must(s.gw('POST', '/gw/apis/oas', oasDoc(id, w.orgId)), 'oas create');
    const put = (h: Record<string, string>) => s.gw('PUT', `/gw/apis/oas/${id}`, oasDoc(id, w.orgId), h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.gw('GET', `/gw/apis/oas/${id}`), 'oas get'),
      bump: async () => void (await must(put({}), 'oas bump')),
      exists: async () => (await s.gw('GET', `/gw/apis/oas/${id}`)).status === 200,
    };
  },
  async apisDelete(s, w) {
    const g = await GUARDED.oasUpdate!(s, w);
    const id = (await g.call()).body.key as string;
    return { ...g, call: (m) => s.gw('DELETE', `/gw/apis/${id}`, undefined, im(m)) };
  },
  async streamsPatch(s, w) {
    const id = uid('c-streams');
    await must(s.gw('POST', '/gw/apis/oas', oasDoc(id, w.orgId)), 'streams api create');
    const patch = (h: Record<string, string>) =>
      s.dash(w.key, 'PATCH', `/api/apis/streams/${id}`, JSON.stringify(streamsDoc(id)), { 'content-type': STREAMS_TYPE, ...h });
    return {
      call: (m) => patch(im(m)),
      etag: () => etagOf(s.gw('GET', `/gw/apis/oas/${id}`), 'oas get'),
      bump: async () => void (await must(patch({}), 'streams bump')),
      exists: async () => (await s.gw('GET', `/gw/apis/oas/${id}`)).status === 200,
    };
  },
  async apiKeysUpdate(s, w) {
    const k = await must(s.gw('POST', '/gw/keys/create', { org_id: w.orgId, access_rights: rightsFor(w.apiId), alias: 'c' }), 'key create');
    const key = k.body.key as string;
    const put = (h: Record<string, string>) => s.dash(w.key, 'PUT', `/api/apis/${w.apiId}/keys/${key}`, { access_rights: rightsFor(w.apiId), alias: 'c2' }, h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.gw('GET', `/gw/keys/${key}`), 'key get'),
      bump: async () => void (await must(put({}), 'key bump')),
      exists: async () => (await s.gw('GET', `/gw/keys/${key}`)).status === 200,
    };
  },
  async policiesUpdate(s, w) {
    const id = uid('c-pol');
    await must(s.gw('POST', '/gw/policies', { id, name: 'c', org_id: w.orgId }), 'policy create');
    const put = (h: Record<string, string>) => s.gw('PUT', `/gw/policies/${id}`, { id, name: 'c2', org_id: w.orgId }, h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.gw('GET', `/gw/policies/${id}`), 'policy get'),
      bump: async () => void (await must(put({}), 'policy bump')),
      exists: async () => (await s.gw('GET', `/gw/policies/${id}`)).status === 200,
    };
  },
  async policiesDelete(s, w) {
    const g = await GUARDED.policiesUpdate!(s, w);
    const id = (await g.call()).body.key as string;
    return { ...g, call: (m) => s.gw('DELETE', `/gw/policies/${id}`, undefined, im(m)) };
  },
  async assetsUpdate(s, w) {
    const c = await must(s.dash(w.key, 'POST', '/api/assets', { name: 'c', data: assetData('c') }), 'asset create');
    const path = `/api/assets/${c.body.Meta}`;
    const put = (h: Record<string, string>) => s.dash(w.key, 'PUT', path, { name: 'c2', data: assetData('c2') }, h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.dash(w.key, 'GET', path), 'asset get'),
      bump: async () => void (await must(put({}), 'asset bump')),
      exists: async () => (await s.dash(w.key, 'GET', path)).status === 200,
      path,
    };
  },
  async assetsDelete(s, w) {
    const g = await GUARDED.assetsUpdate!(s, w);
    return { ...g, call: (m) => s.dash(w.key, 'DELETE', g.path!, undefined, im(m)) };
  },
  async hooksUpdate(s, w) {
    const c = await must(s.dash(w.key, 'POST', '/api/hooks', hookBody('c')), 'hook create');
    const path = `/api/hooks/${c.body.Meta}`;
    const put = (h: Record<string, string>) => s.dash(w.key, 'PUT', path, hookBody('c2'), h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.dash(w.key, 'GET', path), 'hook get'),
      bump: async () => void (await must(put({}), 'hook bump')),
      exists: async () => (await s.dash(w.key, 'GET', path)).status === 200,
      path,
    };
  },
  async hooksDelete(s, w) {
    const g = await GUARDED.hooksUpdate!(s, w);
    return { ...g, call: (m) => s.dash(w.key, 'DELETE', g.path!, undefined, im(m)) };
  },
  async oauthUpdate(s, w) {
    const c = await must(s.gw('POST', '/gw/oauth/clients/create', { api_id: w.apiId, redirect_uri: 'https://c.example/cb' }), 'client create');
    const path = `/gw/oauth/clients/${w.apiId}/${c.body.client_id}`;
    // The only single read of a client is the ETag of its update; the list has none.
    let current = '"1"';
    const put = async (h: Record<string, string>) => {
      const r = await s.gw('PUT', path, { redirect_uri: 'https://c.example/2' }, h);
      if (r.status === 200) current = r.headers.get('etag')!;
      return r;
    };
    return {
      call: (m) => put(im(m)),
      etag: async () => current,
      bump: async () => void (await must(put({}), 'client bump')),
      exists: async () => (await s.gw('GET', `/gw/oauth/clients/${w.apiId}`)).body.some((x: { client_id: string }) => x.client_id === c.body.client_id),
    };
  },
  async organisationsUpdate(s) {
    const id = uid('c-org');
    await must(s.admin('POST', '/admin/organisations', { id, owner_name: id }), 'organisation create');
    const put = (h: Record<string, string>) => s.admin('PUT', `/admin/organisations/${id}`, { owner_name: `${id} changed` }, h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.admin('GET', `/admin/organisations/${id}`), 'organisation get'),
      bump: async () => void (await must(put({}), 'organisation bump')),
      exists: async () => (await s.admin('GET', `/admin/organisations/${id}`)).status === 200,
    };
  },
  async usersUpdate(s, w) {
    const email = `${uid('c-user')}@example.com`;
    const id = (await must(s.admin('POST', '/admin/users', { org_id: w.orgId, email_address: email }), 'user create')).body.Meta.id as string;
    const put = (h: Record<string, string>) => s.admin('PUT', `/admin/users/${id}`, { email_address: email, active: true, first_name: 'c2' }, h);
    // Users have no single read: the list shows each user's version.
    const version = async () =>
      (await must(s.dash(w.key, 'GET', '/api/users?p=-1'), 'users list')).body.users.find((u: { id: string }) => u.id === id)?.version;
    return {
      call: (m) => put(im(m)),
      etag: async () => `"${await version()}"`,
      bump: async () => void (await must(put({}), 'user bump')),
      exists: async () => (await version()) !== undefined,
    };
  },
  async oauthDelete(s, w) {
    const c = await must(s.gw('POST', '/gw/oauth/clients/create', { api_id: w.apiId, redirect_uri: 'https://c.example/cb' }), 'client create');
    const path = `/gw/oauth/clients/${w.apiId}/${c.body.client_id}`;
    let current = '"1"';
    return {
      call: (m) => s.gw('DELETE', path, undefined, im(m)),
      etag: async () => current,
      bump: async () => {
        current = (await must(s.gw('PUT', path, { redirect_uri: 'https://c.example/2' }), 'client bump')).headers.get('etag')!;
      },
      exists: async () => (await s.gw('GET', `/gw/oauth/clients/${w.apiId}`)).body.some((x: { client_id: string }) => x.client_id === c.body.client_id),
    };
  },
  // Self-service (contract §9a): the dashboard's own forms of the guarded writes.
  async apisUpdate(s, w) {
    const id = uid('c-dash-api');
    const def = (name: string) => ({ api_definition: { api_id: id, name, proxy: { listen_path: `/${id}/`, target_url: 'http://u.example' } } });
    await must(s.dash(w.key, 'POST', '/api/apis', def('c')), 'api create');
    const path = `/api/apis/${id}`;
    const put = (h: Record<string, string>) => s.dash(w.key, 'PUT', path, def('c2'), h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.dash(w.key, 'GET', path), 'api get'),
      bump: async () => void (await must(put({}), 'api bump')),
      exists: async () => (await s.dash(w.key, 'GET', path)).status === 200,
      path,
    };
  },
  async apisDashboardDelete(s, w) {
    const g = await GUARDED.apisUpdate!(s, w);
    return { ...g, call: (m) => s.dash(w.key, 'DELETE', g.path!, undefined, im(m)) };
  },
  async oasDashboardUpdate(s, w) {
    const id = uid('c-dash-oas');
    await must(s.dash(w.key, 'POST', '/api/apis/oas', oasDoc(id, w.orgId)), 'oas create');
    const path = `/api/apis/oas/${id}`;
    const put = (h: Record<string, string>) => s.dash(w.key, 'PUT', path, oasDoc(id, w.orgId), h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.dash(w.key, 'GET', path), 'oas get'),
      bump: async () => void (await must(put({}), 'oas bump')),
      exists: async () => (await s.dash(w.key, 'GET', path)).status === 200,
      path,
    };
  },
  async keysDashboardUpdate(s, w) {
    const k = await must(s.dash(w.key, 'POST', '/api/keys', { access_rights: rightsFor(w.apiId), alias: 'c' }), 'key create');
    const path = `/api/keys/${k.body.key_hash}`;
    const put = (h: Record<string, string>) => s.dash(w.key, 'PUT', path, { access_rights: rightsFor(w.apiId), alias: 'c2' }, h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.dash(w.key, 'GET', path), 'key get'),
      bump: async () => void (await must(put({}), 'key bump')),
      exists: async () => (await s.dash(w.key, 'GET', path)).status === 200,
      path,
    };
  },
  async keysDashboardDelete(s, w) {
    const g = await GUARDED.keysDashboardUpdate!(s, w);
    return { ...g, call: (m) => s.dash(w.key, 'DELETE', g.path!, undefined, im(m)) };
  },
  async policiesDashboardUpdate(s, w) {
    const c = await must(s.dash(w.key, 'POST', '/api/portal/policies', { name: 'c' }), 'policy create');
    const path = `/api/portal/policies/${c.body.Meta}`;
    const put = (h: Record<string, string>) => s.dash(w.key, 'PUT', path, { name: 'c2' }, h);
    return {
      call: (m) => put(im(m)),
      etag: () => etagOf(s.dash(w.key, 'GET', path), 'policy get'),
      bump: async () => void (await must(put({}), 'policy bump')),
      exists: async () => (await s.dash(w.key, 'GET', path)).status === 200,
      path,
    };
  },
  async policiesDashboardDelete(s, w) {
    const g = await GUARDED.policiesDashboardUpdate!(s, w);
    return { ...g, call: (m) => s.dash(w.key, 'DELETE', g.path!, undefined, im(m)) };
  },
  async oauthDashboardUpdate(s, w) {
    const c = await must(s.dash(w.key, 'POST', `/api/apis/oauth/${w.apiId}`, { redirect_uri: 'https://c.example/cb' }), 'client create');
    const path = `/api/apis/oauth/${w.apiId}/${c.body.client_id}`;
    let current = '"1"';
    const put = async (h: Record<string, string>) => {
      const r = await s.dash(w.key, 'PUT', path, { redirect_uri: 'https://c.example/2' }, h);
      if (r.status === 200) current = r.headers.get('etag')!;
      return r;
    };
    const listed = async () =>
      (await s.dash(w.key, 'GET', `/api/apis/oauth/${w.apiId}?p=-1`)).body.apps.some((x: { client_id: string }) => x.client_id === c.body.client_id);
    return { call: (m) => put(im(m)), etag: async () => current, bump: async () => void (await must(put({}), 'client bump')), exists: listed, path };
  },
  async oauthDashboardDelete(s, w) {
    const g = await GUARDED.oauthDashboardUpdate!(s, w);
    return { ...g, call: (m) => s.dash(w.key, 'DELETE', g.path!, undefined, im(m)) };
  },
};

export interface Creating {
  /** The creating request with body number `i` (different i, different body). */
  send(i: number, key: string): Promise<Answer>;
  /** How many objects of this kind the world shows, where a list exists. */
  count?(): Promise<number>;
  /** Makes what body number `i` needs beforehand (so a storage fault hits only the create). */
  prepare?(i: number): Promise<unknown>;
}

const listLength = (s: Stage, w: World, path: string, field: string) => async () => {
  const r = await must(s.dash(w.key, 'GET', `${path}?p=-1`), path);
  return (r.body[field] as unknown[]).length;
};
const idem = (key: string) => ({ 'idempotency-key': key });

/** Each creating POST, with bodies that would each create a new object when sent without a key. */
export function creating(s: Stage, w: World, tag: string): Record<string, Creating> {
  const apis = listLength(s, w, '/api/apis', 'apis');
  const noIdDoc = (i: number) => {
    const d = oasDoc('', w.orgId) as any;
    delete d['x-gw-api-gateway'].info.id;
    d['x-gw-api-gateway'].server = { listenPath: { value: `/idem-${tag}-${i}/`, strip: true } };
    return d;
  };
  // Each body number names its own user, whose key the POST rotates (made once, on first use).
  const users = new Map<number, Promise<string>>();
  const userFor = (i: number) => {
    if (!users.has(i)) {
      const made = must(s.admin('POST', '/admin/users', { org_id: w.orgId, email_address: `rot-${tag}-${i}@example.com` }), 'user create');
      users.set(
        i,
        made.then((r) => r.body.Meta.id as string),
      );
    }
    return users.get(i)!;
  };
  // The world's developer: its requests and keys, one per body number, made on first use.
  const portal = `/portal/${w.orgId}`;
  const asDeveloper = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    s.call(method, path, { headers: { authorization: `Bearer ${w.devToken}`, ...headers }, body });
  const once = <T>(make: (i: number) => Promise<T>) => {
    const made = new Map<number, Promise<T>>();
    return (i: number) => {
      if (!made.has(i)) made.set(i, make(i));
      return made.get(i)!;
    };
  };
  const approvedRequest = once(async () => {
    const asked = await must(asDeveloper('POST', `${portal}/key-requests`, { api_id: w.apiId, plan_id: 'pro' }), 'key request');
    const id = asked.body.Meta.request.id as string;
    await must(s.dash(w.key, 'POST', `/api/portal/key-requests/${id}/approve`), 'approval');
    return id;
  });
  const heldKey = once(async () => {
    const asked = await must(asDeveloper('POST', `${portal}/key-requests`, { api_id: w.apiId, plan_id: 'free' }), 'automatic key');
    return asked.body.Meta.key_hash as string;
  });
  return {
    portalInvitationsCreate: { send: (i, k) => s.dash(w.key, 'POST', '/api/portal/invitations', { email_address: `idem-${tag}-${i}@example.com` }, idem(k)) },
    // Body 1 differs (the manual plan) and is refused with 422 before it runs; 0 and 2 are requests of their own.
    portalRequestKey: { send: (i, k) => asDeveloper('POST', `${portal}/key-requests`, { api_id: w.apiId, plan_id: i === 1 ? 'pro' : 'free' }, idem(k)) },
    portalCollectKey: {
      prepare: approvedRequest,
      send: async (i, k) => asDeveloper('POST', `${portal}/key-requests/${await approvedRequest(i)}/key`, undefined, idem(k)),
    },
    portalRollKey: { prepare: heldKey, send: async (i, k) => asDeveloper('POST', `${portal}/keys/${await heldKey(i)}/roll`, undefined, idem(k)) },
    usersRotateAccessKey: { prepare: userFor, send: async (i, k) => s.admin('POST', `/admin/users/${await userFor(i)}/access-key`, undefined, idem(k)) },
    organisationsCreate: { send: (i, k) => s.admin('POST', '/admin/organisations', { owner_name: `idem-${tag}-${i}` }, idem(k)) },
    usersCreate: {
      send: (i, k) => s.admin('POST', '/admin/users', { org_id: w.orgId, email_address: `idem-${tag}-${i}@example.com` }, idem(k)),
      count: listLength(s, w, '/api/users', 'users'),
    },
    oasCreate: { send: (i, k) => s.gw('POST', '/gw/apis/oas', noIdDoc(i), idem(k)), count: apis },
    classicCreate: {
      send: (i, k) =>
        s.gw('POST', '/gw/apis', { name: `idem-${i}`, org_id: w.orgId, proxy: { listen_path: `/idem-${tag}-${i}/`, target_url: 'http://u.example' } }, idem(k)),
      count: apis,
    },
    keysCreate: { send: (i, k) => s.gw('POST', '/gw/keys/create', { org_id: w.orgId, access_rights: rightsFor(w.apiId), alias: `idem-${i}` }, idem(k)) },
    orgKeysAdminCreate: {
      send: (i, k) => s.admin('POST', '/admin/org/keys', { org_id: w.orgId, access_rights: rightsFor(w.apiId), alias: `idem-${i}` }, idem(k)),
    },
    policiesCreate: { send: (i, k) => s.gw('POST', '/gw/policies', { id: `idem-${tag}-${i}`, name: `idem-${i}` }, idem(k)) },
    oasImport: {
      send: (i, k) =>
        s.dash(w.key, 'POST', `/api/apis/oas/import?listenPath=/idem-import-${tag}-${i}/`, JSON.stringify(importDoc(`idem-${tag}-${i}`)), {
          'content-type': 'application/json',
          ...idem(k),
        }),
      count: apis,
    },
    assetsCreate: {
      send: (i, k) => s.dash(w.key, 'POST', '/api/assets', { name: `idem-${i}`, data: assetData(`idem-${i}`) }, idem(k)),
      count: listLength(s, w, '/api/assets', 'assets'),
    },
    hooksCreate: { send: (i, k) => s.dash(w.key, 'POST', '/api/hooks', hookBody(`idem-${i}`), idem(k)), count: listLength(s, w, '/api/hooks', 'hooks') },
    apisCreate: {
      send: (i, k) =>
        s.dash(
          w.key,
          'POST',
          '/api/apis',
          { api_definition: { name: `idem-${i}`, proxy: { listen_path: `/idem-dash-${tag}-${i}/`, target_url: 'http://u.example' } } },
          idem(k),
        ),
      count: apis,
    },
    oasDashboardCreate: {
      send: (i, k) => {
        const d = noIdDoc(i);
        d['x-gw-api-gateway'].server.listenPath.value = `/idem-dash-oas-${tag}-${i}/`;
        return s.dash(w.key, 'POST', '/api/apis/oas', d, idem(k));
      },
      count: apis,
    },
    keysDashboardCreate: {
      send: (i, k) => s.dash(w.key, 'POST', '/api/keys', { access_rights: rightsFor(w.apiId), alias: `idem-${i}` }, idem(k)),
      count: listLength(s, w, '/api/keys', 'keys'),
    },
    policiesDashboardCreate: {
      send: (i, k) => s.dash(w.key, 'POST', '/api/portal/policies', { name: `idem-${i}` }, idem(k)),
      count: listLength(s, w, '/api/portal/policies', 'Data'),
    },
    oauthDashboardCreate: {
      send: (i, k) => s.dash(w.key, 'POST', `/api/apis/oauth/${w.apiId}`, { redirect_uri: `https://idem.example/${i}` }, idem(k)),
      count: listLength(s, w, `/api/apis/oauth/${w.apiId}`, 'apps'),
    },
    oauthCreate: {
      send: (i, k) => s.gw('POST', '/gw/oauth/clients/create', { api_id: w.apiId, redirect_uri: `https://idem.example/${i}` }, idem(k)),
      count: async () => (await must(s.gw('GET', `/gw/oauth/clients/${w.apiId}`), 'oauth list')).body.length,
    },
  };
}
