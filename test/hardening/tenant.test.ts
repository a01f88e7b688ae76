/**
 * Tenant matrix (RELIABILITY.md). Two organisations A and B with one object of every kind.
 * - Every dashboard route whose path names an object, taken FROM THE ROUTE TABLE, is called with
 *   B's key on A's object: 404 in the dashboard envelope, and A's whole view is unchanged. A new
 *   dashboard route with a path parameter the table below does not know fails the suite, so the
 *   coverage cannot silently rot.
 * - Every dashboard list and search (GET, no path parameter, from the table) shows B exactly B's
 *   ids, over all pages, and none of A's.
 * - Every reference a dashboard write can make (APIs, policies, templates, bases, version links,
 *   policies inside definitions; test/hardening/resources/references.ts) refuses A's object with
 *   422, answering byte for byte as for the same id once A's object is gone, and changes nothing.
 * - Gateway writes naming organisation A cannot change B's objects.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import type { RouteDef } from '../../shared/route-def';
import type { Stage } from '../support/stage';
import { useStage } from '../support/file-stage';
import { makeObject, NO_REFERENCES, referenceSlots } from './resources/references';
import { activityPath, allIds, viewOf } from './resources/views';
import { assetData, hookBody, importDoc, oasDoc, rightsFor, STREAMS_TYPE, streamsDoc, uid } from '../support/fixtures';
import { ACTIVITY_DAY, buildWorld, type World } from '../support/world';

/** A sweep sends a few hundred requests one after another: seconds alone, a minute or more under the whole suite's load. */
const SWEEP_MS = 180_000;

const s = useStage();
let A: World;
let B: World;
beforeAll(async () => {
  A = await buildWorld(s, 'ten-a');
  B = await buildWorld(s, 'ten-b');
});

type Route = RouteDef & { name: string };
const paramNames = (r: RouteDef) => [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** Each path parameter name -> the values that name A's objects (every alias of the object). */
const A_VALUES: Record<string, (a: World) => string[]> = {
  apiID: (a) => [a.apiId, a.apiDbId, a.importedApiId],
  keyRef: (a) => [a.gwKey, a.adminKey],
  keyHash: (a) => [a.gwKeyHash],
  policyID: (a) => [a.policyId],
  clientID: (a) => [a.clientId],
  assetID: (a) => [a.assetDbId, a.assetCustomId],
  hookID: (a) => [a.hookId],
  deliveryID: (a) => [a.deliveryId],
  developerID: (a) => [a.developerId],
  requestID: (a) => [a.requestIds[0]!],
  // Date parts of the key-activity route: the day A's analytics record falls on.
  startDay: () => [ACTIVITY_DAY.day],
  startMonth: () => [ACTIVITY_DAY.month],
  startYear: () => [ACTIVITY_DAY.year],
  EndDay: () => [ACTIVITY_DAY.day],
  EndMonth: () => [ACTIVITY_DAY.month],
  EndYear: () => [ACTIVITY_DAY.year],
};

/** Routes that name more of A's objects than the parameter's default: the self-service key routes also take the admin-made key's hash. */
const ROUTE_VALUES: Record<string, Record<string, (a: World) => string[]>> = {
  ...Object.fromEntries(
    ['keysDashboardGet', 'keysDashboardUpdate', 'keysDashboardDelete'].map((n) => [n, { keyHash: (a: World) => [a.gwKeyHash, a.adminKeyHash] }]),
  ),
  // Its own pending request: the approval's, checked first, leaves the other one pending.
  portalKeyRequestsRefuse: { requestID: (a: World) => [a.requestIds[1]!] },
};

/** A valid body for each dashboard route that takes one, so only the tenant check can refuse it. */
const BODIES: Record<string, (p: Record<string, string>, a: World) => { body: unknown; type?: string }> = {
  // The key keeps its basic-auth user: a full replace without it would free the name.
  apiKeysUpdate: (_p, a) => ({ body: { access_rights: rightsFor(a.apiId), alias: 'hijacked', basic_auth_data: { user: a.username } } }),
  streamsPatch: (p) => ({ body: JSON.stringify(streamsDoc(p.apiID!)), type: STREAMS_TYPE }),
  assetsUpdate: () => ({ body: { id: 'hijacked', name: 'hijacked', data: assetData('hijacked') } }),
  hooksUpdate: () => ({ body: hookBody('hijacked') }),
  // Self-service (contract §9a): each body valid for the world whose object the path names.
  apisUpdate: (_p, a) => ({ body: { api_definition: { name: 'hijacked', proxy: { listen_path: `/${a.apiId}/`, target_url: 'http://upstream.example' } } } }),
  oasDashboardUpdate: (_p, a) => ({ body: oasDoc(a.apiId, '', { title: 'hijacked' }) }),
  keysDashboardUpdate: (_p, a) => ({ body: { access_rights: rightsFor(a.apiId), alias: 'hijacked', basic_auth_data: { user: a.username } } }),
  policiesDashboardUpdate: (_p, a) => ({ body: { name: 'hijacked', access_rights: rightsFor(a.apiId) } }),
  oauthDashboardCreate: () => ({ body: { redirect_uri: 'https://hijacked.example/cb' } }),
  oauthDashboardUpdate: () => ({ body: { redirect_uri: 'https://hijacked.example/cb' } }),
  portalCataloguePut: (_p, a) => ({ body: { plans: [{ id: 'hijacked', name: 'hijacked', policy_id: a.policyId, approval: 'auto' }] } }),
  portalDevelopersUpdate: () => ({ body: { state: 'active' } }),
  portalKeyRequestsRefuse: () => ({ body: { reason: 'hijacked' } }),
};

/** Each dashboard list: how to read its ids, and which ids of a world it must show. */
const LISTS: Record<string, { query?: string; ids: (body: any) => string[]; own: (w: World) => string[]; subset?: true }> = {
  usersList: { ids: (b) => b.users.map((u: any) => u.id), own: (w) => w.userIds },
  // Both worlds' e-mails hold "matrix-": a search that leaked would find A's users.
  usersSearch: { query: 'q=matrix-', ids: (b) => b.users.map((u: any) => u.id), own: (w) => w.userIds },
  apisList: { ids: (b) => b.apis.map((x: any) => x.api_definition.api_id), own: (w) => [w.apiId, w.classicApiId, w.importedApiId] },
  assetsList: { ids: (b) => b.assets.map((x: any) => x._id), own: (w) => [w.assetDbId] },
  hooksList: { ids: (b) => b.hooks.map((x: any) => x.id), own: (w) => [w.hookId] },
  keysList: { ids: (b) => b.keys.map((x: any) => x.key_hash), own: (w) => [w.gwKeyHash, w.adminKeyHash] },
  policiesList: { ids: (b) => b.Data.map((x: any) => x.id), own: (w) => [w.policyId] },
  usersMe: { ids: (b) => [b.id], own: (w) => [w.userIds[0]!] },
  // The trail grows behind the change feed while the matrix runs: every entry is the caller's
  // organisation's (its exact entries are test/e2e/audit-log.test.ts's).
  auditList: { ids: (b) => b.entries.map((e: any) => e.org_id), own: (w) => [w.orgId], subset: true },
  portalSettingsGet: { ids: (b) => [b.org_id], own: (w) => [w.orgId] },
  portalCatalogueList: { ids: (b) => b.apis.map((e: any) => e.api_id), own: (w) => [w.apiId] },
  portalDevelopersList: { ids: (b) => b.developers.map((d: any) => d.id), own: (w) => [w.developerId] },
  // The matrix's own checks decide the worlds' requests as it runs: every one shown is the caller's.
  portalKeyRequestsList: { ids: (b) => b.requests.map((r: any) => r.id), own: (w) => w.requestIds, subset: true },
};

const dashboardRoutes = routeList.filter((r) => r.group === 'dashboard');
const objectRoutes = dashboardRoutes.filter((r) => paramNames(r).length > 0);
const listRoutes = dashboardRoutes.filter((r) => r.method === 'GET' && paramNames(r).length === 0);

/** Every combination of A's values for the route's parameters. */
function combos(r: Route, a: World): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const n of paramNames(r)) out = out.flatMap((c) => (ROUTE_VALUES[r.name]?.[n] ?? A_VALUES[n]!)(a).map((v) => ({ ...c, [n]: v })));
  return out;
}
const fill = (path: string, p: Record<string, string>) => path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(p[n]!));

function callAs(key: string, r: Route, params: Record<string, string>, a: World, extra: Record<string, string> = {}, query = '') {
  const b = BODIES[r.name]?.(params, a);
  const headers = { ...(b?.type ? { 'content-type': b.type } : {}), ...extra };
  return s.dash(key, r.method, fill(r.path, params) + query, b?.body, headers);
}

describe('the route table is fully mapped', () => {
  it('knows every path parameter of every dashboard route, and a body for each that takes one', () => {
    expect(objectRoutes.length).toBeGreaterThan(0);
    const unmapped = objectRoutes.flatMap((r) =>
      paramNames(r)
        .filter((n) => !A_VALUES[n])
        .map((n) => `${r.name}: {${n}}`),
    );
    expect(unmapped, 'add the parameter to A_VALUES in test/hardening/tenant.test.ts').toEqual([]);
    const noBody = objectRoutes.filter((r) => (r.body || r.bodyKind === 'raw') && !BODIES[r.name]).map((r) => r.name);
    expect(noBody, 'add a valid body to BODIES').toEqual([]);
    const unknownLists = listRoutes.filter((r) => !LISTS[r.name]).map((r) => r.name);
    expect(unknownLists, 'add the list to LISTS').toEqual([]);
  });

  it(
    "each mapped route works for A on A's own objects (the matrix is not refusing for another reason)",
    async () => {
      // Reads only: A's writes would change what the matrix compares against.
      for (const r of objectRoutes.filter((x) => x.method === 'GET')) {
        for (const p of combos(r, A)) {
          const res = await callAs(A.key, r, p, A);
          expect(res.status, `${r.name} ${JSON.stringify(p)} ${JSON.stringify(res.body)}`).toBe(200);
        }
      }
      // Writes are checked on B's own objects through B, with B's values in the same tables.
      for (const r of objectRoutes.filter((x) => x.method !== 'GET' && x.method !== 'DELETE')) {
        const p = combos(r, B)[0]!;
        const res = await callAs(B.key, r, p, B);
        expect(res.status, `${r.name} ${JSON.stringify(p)} ${JSON.stringify(res.body)}`).toBe(200);
      }
    },
    SWEEP_MS,
  );
});

describe("B's key on A's objects", () => {
  it(
    'every dashboard route that names an object answers 404 and changes nothing of A',
    async () => {
      const before = await viewOf(s, A);
      let calls = 0;
      for (const r of objectRoutes) {
        for (const p of combos(r, A)) {
          // With If-Match too: a 412 would tell B that the object exists.
          for (const ifMatch of r.etag ? [undefined, '"1"', '"999"'] : [undefined]) {
            const res = await callAs(B.key, r, p, A, ifMatch ? { 'if-match': ifMatch } : {});
            const what = `${r.method} ${fill(r.path, p)} if-match=${ifMatch}`;
            expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(404);
            expect(res.body, what).toMatchObject({ Status: 'Error', Meta: null });
            calls++;
          }
        }
        expect(await viewOf(s, A), `after ${r.name}`).toEqual(before);
      }
      expect(calls).toBeGreaterThanOrEqual(objectRoutes.length);
      console.log(`tenant matrix: ${objectRoutes.length} dashboard object routes, ${calls} cross-tenant calls, all 404`);
    },
    SWEEP_MS,
  );

  it(
    "If-Match: * on A's objects answers exactly as on objects that exist nowhere (412), and changes nothing",
    async () => {
      const before = await viewOf(s, A);
      for (const r of objectRoutes.filter((x) => x.etag)) {
        for (const p of combos(r, A)) {
          const theirs = await callAs(B.key, r, p, A, { 'if-match': '*' });
          const nowhere = Object.fromEntries(Object.keys(p).map((n) => [n, `nowhere-${n}`]));
          const none = await callAs(B.key, r, nowhere, A, { 'if-match': '*' });
          const what = `${r.method} ${fill(r.path, p)} if-match=*`;
          expect(theirs.status, `${what}: ${JSON.stringify(theirs.body)}`).toBe(412);
          expect(theirs.body, what).toEqual(none.body);
        }
      }
      expect(await viewOf(s, A)).toEqual(before);
    },
    SWEEP_MS,
  );

  it('the key lookups by hash, user name and guess find nothing of A', async () => {
    const before = await viewOf(s, A);
    const body = { access_rights: rightsFor(A.apiId), alias: 'hijacked' };
    for (const [id, q] of [
      [A.gwKeyHash, '?hashed=1'],
      [A.username, '?username=true'],
      [A.gwKey, '?auto_guess=true'],
      [A.gwKeyHash, '?auto_guess=true'],
    ]) {
      for (const api of [A.apiId, B.apiId]) {
        const r = await s.dash(B.key, 'PUT', `/api/apis/${api}/keys/${id}${q}`, body);
        expect(r.status, `${api} ${id}${q}`).toBe(404);
      }
    }
    expect(await viewOf(s, A)).toEqual(before);
  });

  it("a key of A that the gateway let grant B's API is still not B's to change", async () => {
    const cross = await s.gw('POST', '/gw/keys/create', { org_id: A.orgId, access_rights: rightsFor(A.apiId, B.apiId), alias: 'cross' });
    if (cross.status !== 200) return expect(cross.status).toBeLessThan(500); // refusing the grant is fine too
    const r = await s.dash(B.key, 'PUT', `/api/apis/${B.apiId}/keys/${cross.body.key}`, { access_rights: rightsFor(B.apiId), alias: 'hijacked' });
    expect(r.status).toBe(404);
    expect((await s.gw('GET', `/gw/keys/${cross.body.key}`)).body).toMatchObject({ alias: 'cross', org_id: A.orgId });
    expect((await s.dash(B.key, 'GET', activityPath(cross.body.key_hash))).status).toBe(404);
    // A's key list is the world's again for the list checks below.
    expect((await s.gw('DELETE', `/gw/keys/${cross.body.key}`)).status).toBe(200);
  });

  it("objects named in import queries (templateID, base_api_id) must be B's own: 422", async () => {
    const before = await viewOf(s, A);
    const beforeB = await viewOf(s, B);
    const doc = JSON.stringify(importDoc('cross'));
    const json = { 'content-type': 'application/json' };
    for (const q of [
      `templateID=${A.assetDbId}`,
      `templateID=${A.assetCustomId}`,
      `base_api_id=${A.apiId}&new_version_name=v9`,
      `base_api_id=${A.apiDbId}&new_version_name=v9`,
    ]) {
      const r = await s.dash(B.key, 'POST', `/api/apis/oas/import?${q}`, doc, json);
      expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(422);
      expect(r.body).toMatchObject({ Status: 'Error' });
    }
    expect(await viewOf(s, A)).toEqual(before);
    expect(await viewOf(s, B)).toEqual(beforeB);
  });
});

describe("references in B's writes to A's objects", () => {
  it('every dashboard write route is in the reference table or named as making none', () => {
    const slots = new Set(referenceSlots(s, B).map((x) => x.route));
    const writes = dashboardRoutes.filter((r) => r.method !== 'GET').map((r) => r.name);
    const unmapped = writes.filter((n) => !slots.has(n) && !NO_REFERENCES[n]);
    expect(unmapped, 'add the route to test/hardening/resources/references.ts').toEqual([]);
    expect([...slots].filter((n) => !writes.includes(n))).toEqual([]);
  });

  it(
    "each reference to A's object is 422, byte for byte the answer for the same id once the object is gone",
    async () => {
      const beforeA = await viewOf(s, A);
      const beforeB = await viewOf(s, B);
      const slots = referenceSlots(s, B);
      for (const slot of slots) {
        const what = `${slot.route} ${slot.what}`;
        const obj = await makeObject(s, A, slot.kind);
        const foreign = await slot.send(obj.id);
        expect(foreign.status, `${what}: ${JSON.stringify(foreign.body)}`).toBe(422);
        expect(foreign.body, what).toMatchObject({ Status: 'Error' });
        await obj.remove();
        const gone = await slot.send(obj.id);
        expect(JSON.stringify(gone.body), what).toBe(JSON.stringify(foreign.body));
        // An id that never existed anywhere answers the same, but for the id itself.
        const nowhere = uid('nowhere');
        const never = await slot.send(nowhere);
        expect(JSON.stringify(never.body).replaceAll(nowhere, '<id>'), what).toBe(JSON.stringify(foreign.body).replaceAll(obj.id, '<id>'));
      }
      expect(await viewOf(s, A)).toEqual(beforeA);
      expect(await viewOf(s, B)).toEqual(beforeB);
      console.log(`tenant matrix: ${slots.length} references of dashboard writes, each refused for A's object as for none`);
    },
    SWEEP_MS,
  );

  it("B's check on A's API stays 403 after B tried to grant it to its own key", async () => {
    const check = () => s.gw('POST', '/gw/sessions/check', { key: B.gwKey, api_id: A.apiId, path: '/x', method: 'GET' });
    expect((await check()).status).toBe(403);
    for (const slot of referenceSlots(s, B).filter((x) => x.route === 'apiKeysUpdate')) {
      const id = slot.kind === 'api' ? A.apiId : A.policyId; // A's policy grants A's API
      expect((await slot.send(id)).status, slot.what).toBe(422);
      expect((await check()).body, slot.what).toMatchObject({ allowed: false, reason: 'AccessDenied' });
    }
  });
});

describe("B's lists and searches", () => {
  it(
    "show exactly B's ids over all pages, and none of A's",
    async () => {
      for (const r of listRoutes) {
        const l = LISTS[r.name]!;
        const path = `${r.path}${l.query ? `?${l.query}` : ''}`;
        for (const [me, other] of [
          [B, A],
          [A, B],
        ] as const) {
          const { all, walked } = await allIds(s, me.key, path, l.ids);
          const own = [...l.own(me)].sort();
          const seen = (ids: string[]) => (l.subset ? [...new Set(ids)].filter((id) => !own.includes(id)) : [...ids].sort());
          expect(seen(all), `${r.name} p=-1 for ${me.orgId}`).toEqual(l.subset ? [] : own);
          expect(seen(walked), `${r.name} cursor walk for ${me.orgId}`).toEqual(l.subset ? [] : own);
          expect(
            all.filter((id) => l.own(other).includes(id)),
            r.name,
          ).toEqual([]);
        }
      }
      // Same-named objects in both organisations stay apart: B may reuse A's asset custom id.
      const same = await s.dash(B.key, 'POST', '/api/assets', { id: A.assetCustomId, name: 'B copy', data: assetData('B copy') });
      expect(same.status).toBe(200);
      expect((await s.dash(A.key, 'GET', `/api/assets/${A.assetCustomId}`)).body).toMatchObject({ _id: A.assetDbId, name: 'T' });
      expect((await s.dash(B.key, 'GET', `/api/assets/${A.assetCustomId}`)).body).toMatchObject({ _id: same.body.Meta, name: 'B copy' });
      expect((await s.dash(B.key, 'DELETE', `/api/assets/${same.body.Meta}`)).status).toBe(200);
    },
    SWEEP_MS,
  );
});

describe('gateway writes naming organisation A', () => {
  it("cannot change B's objects: taken ids are 409, B's user names stay B's, foreign key hashes are not counted, A's session is A's", async () => {
    const before = await viewOf(s, B);
    const expectStatus = async (what: string, p: ReturnType<Stage['call']>, status: number) => {
      const r = await p;
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(status);
      return r;
    };
    await expectStatus(
      'classic api_id',
      s.gw('POST', '/gw/apis', { api_id: B.apiId, name: 'x', org_id: A.orgId, proxy: { listen_path: '/x/', target_url: 'http://u.example' } }),
      409,
    );
    await expectStatus('OAS api_id', s.gw('POST', '/gw/apis/oas', oasDoc(B.apiId, A.orgId)), 409);
    await expectStatus(
      'classic database id',
      s.gw('POST', '/gw/apis', { api_id: uid('x'), id: B.apiDbId, name: 'x', org_id: A.orgId, proxy: { listen_path: '/y/', target_url: 'http://u.example' } }),
      409,
    );
    const dbIdDoc = oasDoc(uid('x'), A.orgId);
    (dbIdDoc['x-gw-api-gateway'].info as Record<string, unknown>).dbId = B.apiDbId;
    await expectStatus('OAS database id', s.gw('POST', '/gw/apis/oas', dbIdDoc), 409);
    await expectStatus('policy id', s.gw('POST', '/gw/policies', { id: B.policyId, org_id: A.orgId, name: 'x' }), 409);
    await expectStatus(
      'OAuth client_id',
      s.gw('POST', '/gw/oauth/clients/create', { api_id: A.apiId, redirect_uri: 'https://x.example', client_id: B.clientId }),
      409,
    );
    // Basic-auth user names are per organisation: A may have its own key named like B's.
    await expectStatus(
      'basic-auth user',
      s.gw('POST', '/gw/keys/create', { org_id: A.orgId, access_rights: rightsFor(A.apiId), basic_auth_data: { user: B.username, password: 'pw-999999' } }),
      200,
    );
    const ingest = await expectStatus(
      'analytics',
      s.gw('POST', '/gw/analytics', {
        records: [
          {
            api_id: B.apiId,
            path: '/x',
            method: 'GET',
            response_code: 500,
            key_hash: B.gwKeyHash,
            org_id: A.orgId,
            timestamp: ACTIVITY_DAY.iso,
            request_time: 5,
            latency: { total: 5, upstream: 3 },
          },
        ],
      }),
      200,
    );
    expect(ingest.body).toMatchObject({ stored: 0, unknown_keys: 1 });
    await expectStatus('org session', s.gw('PUT', `/gw/org/keys/${A.orgId}`, { org_id: B.orgId, quota_max: 1, quota_renewal_rate: 3600 }), 200);
    // B's key still spends its own quota, not A's (which allows one request).
    const check = async () => (await s.gw('POST', '/gw/sessions/check', { key: B.gwKey, api_id: B.apiId, path: '/x', method: 'GET' })).status;
    const after = await viewOf(s, B);
    expect(after).toEqual(before);
    expect([await check(), await check()]).toEqual([200, 200]);
  });
});
