/**
 * The routing trust boundary (contract §13) through the external-authorization route and the
 * check, as the review that found it tried it: the path decided on is the one the upstream acts
 * on, a path upstreams read in different ways is 400 before any API is chosen, a domain routes
 * only its own organisation's APIs, and claims stored before the rules (written here straight to
 * the table) are never chosen when they break them. Through real nginx: test/gateways/nginx.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../shared/store/db/client';
import { claimKeys } from '../../shared/store/listen-claims';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { useStage } from '../support/file-stage';
import { GW_SECRET } from '../support/table';

const s = useStage();
let acme: string;
let evil: string;
beforeAll(async () => {
  acme = (await s.tenant()).orgId;
  evil = (await s.tenant()).orgId;
});

async function api(orgId: string, listenPath: string, domain?: string): Promise<string> {
  const apiId = uid('rt');
  const r = await s.gw('POST', '/gw/apis', {
    api_id: apiId,
    name: apiId,
    org_id: orgId,
    proxy: { listen_path: listenPath, target_url: 'http://upstream.example' },
    ...(domain ? { domain } : {}),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return apiId;
}

/** nginx's way, as examples/nginx/api-gateway.conf sends it. */
const ask = (uri: string, key: string, host = 'gw.example') =>
  s.call('GET', '/gw/ext-authz/nginx', {
    headers: { 'x-gw-authorization': GW_SECRET, 'x-original-uri': uri, 'x-original-method': 'GET', 'x-original-host': host, authorization: key },
  });

/** A claim as it was stored before contract §13: its marker only, whatever the rules say now. */
async function legacyClaim(orgId: string, apiId: string, path: string, domain = '') {
  await ddb().send(
    new PutCommand({
      TableName: s.table,
      Item: { ...claimKeys.of({ domain, path }), entity: 'listen_path', api_id: apiId, org_id: orgId, domain, listen_path: path },
    }),
  );
}

describe('the path decided on (contract §13)', () => {
  it('every spelling the review tried gets the answer of the path the upstream acts on', async () => {
    const root = `/${uid('books')}`;
    const books = await api(acme, `${root}/`);
    const admin = await api(acme, `${root}/admin/`);
    const { key } = await makeKey(s, { org_id: acme, access_rights: rightsFor(books) });
    const table: Array<[string, number, string | null]> = [
      [`${root}/x`, 200, `${root}/x`],
      [`${root}/admin/x`, 403, `${root}/admin/x`],
      [`${root}/../${root.slice(1)}/admin/x`, 403, `${root}/admin/x`],
      [`${root}/%2e%2e/${root.slice(1)}/admin/x`, 403, `${root}/admin/x`],
      [`${root}/./admin/x`, 403, `${root}/admin/x`],
      [`${root}/%61dmin/x`, 403, `${root}/admin/x`],
      [`${root}//admin/x`, 403, `${root}/admin/x`],
      [`${root}/admin%2Fx`, 400, null],
      [`${root}/admin%2fx`, 400, null],
      [`${root}/admin%5Cx`, 400, null],
      [`${root}/admin\\x`, 400, null],
      [`${root}/admin;x/x`, 400, null],
      [`${root}/%zz`, 400, null],
      [`${root}/./x//y/../z`, 200, `${root}/x/z`],
    ];
    const seen = [];
    for (const [uri] of table) {
      const r = await ask(uri, key);
      seen.push([uri, r.status, r.headers.get('x-gw-path')]);
      if (r.status === 403) expect(r.headers.get('x-gw-api-id'), uri).toBe(admin);
      if (r.status === 400) expect(r.body, uri).toMatchObject({ allowed: false, reason: 'AmbiguousPath' });
    }
    expect(seen).toEqual(table);
  });

  it('allowed_urls are tried on the decided path: no dot segment climbs out of a public prefix', async () => {
    const root = `/${uid('pub')}`;
    const apiId = await api(acme, `${root}/`);
    const rights = { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], allowed_urls: [{ url: '^/public', methods: ['GET'] }] } };
    const { key } = await makeKey(s, { org_id: acme, access_rights: rights });
    const statuses = [];
    for (const uri of [`${root}/public/a`, `${root}/public/../private/a`, `${root}/public/%2e%2e/private/a`, `${root}/public/%2E%2E/private/a`]) {
      statuses.push((await ask(uri, key)).status);
    }
    expect(statuses).toEqual([200, 403, 403, 403]);
  });

  it('the check refuses a path upstreams read in different ways with 400, spending nothing', async () => {
    const apiId = await api(acme, `/${uid('chk')}/`);
    const { key } = await makeKey(s, { org_id: acme, access_rights: rightsFor(apiId), quota_max: 5, quota_renewal_rate: 3600 });
    const r = await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: '/a%2Fb', method: 'GET' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ path: 'body.path', message: 'an encoded / or \\ in the path' }]);
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(5);
  });
});

describe('whose API a request reaches (contract §13)', () => {
  it("a domain granted to an organisation routes only its APIs; another organisation's claims never answer there", async () => {
    const dom = `${uid('acme')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${acme}/domains/${dom}`)).status).toBe(200);
    const shared = await api(acme, `/${uid('shared')}/`);
    const evilShared = await api(evil, `/${uid('evil')}/`);
    const { key } = await makeKey(s, { org_id: acme, access_rights: rightsFor(shared) });
    const { key: evilKey } = await makeKey(s, { org_id: evil, access_rights: rightsFor(evilShared) });
    const sharedPath = (await s.gw('GET', `/gw/apis/${shared}`)).body.proxy.listen_path;
    const evilPath = (await s.gw('GET', `/gw/apis/${evilShared}`)).body.proxy.listen_path;
    expect((await ask(`${sharedPath}x`, key, dom)).status).toBe(200);
    expect((await ask(`${evilPath}x`, evilKey, dom)).status).toBe(404);
    expect((await ask(`${evilPath}x`, evilKey)).status).toBe(200);
    // A claim another organisation stored on the domain before the rules counts nowhere.
    const planted = await api(evil, `/${uid('planted')}/`);
    await legacyClaim(evil, planted, '/', dom);
    const { key: plantedKey } = await makeKey(s, { org_id: evil, access_rights: rightsFor(planted) });
    expect((await ask(`/${uid('anything')}/x`, plantedKey, dom)).status).toBe(404);
    expect((await ask(`${sharedPath}x`, key, dom)).headers.get('x-gw-api-id')).toBe(shared);
  });

  it('a claim on a domain that is not granted (revoked, or stored before the rules) is never chosen', async () => {
    const dom = `${uid('rev')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${acme}/domains/${dom}`)).status).toBe(200);
    const onDom = await api(acme, `/${uid('ondom')}/`, dom);
    const { key } = await makeKey(s, { org_id: acme, access_rights: rightsFor(onDom) });
    const path = (await s.gw('GET', `/gw/apis/${onDom}`)).body.proxy.listen_path;
    expect((await ask(`${path}x`, key, dom)).status).toBe(200);
    expect((await s.admin('DELETE', `/admin/organisations/${acme}/domains/${dom}`)).status).toBe(200);
    // The stage caches a found API for CACHE_SECONDS; another path is read afresh.
    expect((await ask(`${path}y`, key, dom)).status).toBe(404);
    // The review's attack, stored before the rules: evil's root on 127.0.0.1.
    const evilHost = await api(evil, `/${uid('evilhost')}/`);
    await legacyClaim(evil, evilHost, '/', '127.0.0.1');
    const books = await api(acme, `/${uid('books')}/`);
    const booksPath = (await s.gw('GET', `/gw/apis/${books}`)).body.proxy.listen_path;
    const { key: acmeKey } = await makeKey(s, { org_id: acme, access_rights: rightsFor(books) });
    const r = await ask(`${booksPath}x`, acmeKey, '127.0.0.1');
    expect([r.status, r.headers.get('x-gw-api-id')]).toEqual([200, books]);
  });

  it("on the shared hosts another organisation's claim nested under yours before the rules never receives your traffic", async () => {
    const root = `/${uid('books')}`;
    const books = await api(acme, `${root}/`);
    const intruder = await api(evil, `/${uid('intruder')}/`);
    await legacyClaim(evil, intruder, `${root}/internal`);
    await legacyClaim(evil, intruder, '/');
    const { key } = await makeKey(s, { org_id: acme, access_rights: rightsFor(books) });
    const { key: evilKey } = await makeKey(s, { org_id: evil, access_rights: rightsFor(intruder) });
    const mine = await ask(`${root}/internal/data`, key);
    expect([mine.status, mine.headers.get('x-gw-api-id')]).toEqual([200, books]);
    const theirs = await ask(`${root}/internal/data`, evilKey);
    expect([theirs.status, theirs.headers.get('x-gw-api-id')]).toEqual([403, books]);
    // The root stored on the shared hosts serves nothing either.
    expect((await ask(`/${uid('unclaimed')}/x`, evilKey)).status).toBe(404);
  });
});

describe('npm run claims:report (contract §13)', () => {
  it('lists the claims stored before the rules that break them, and exits 1', async () => {
    const root = `/${uid('reported')}`;
    const books = await api(acme, `${root}/`);
    const intruder = await api(evil, `/${uid('intr')}/`);
    await legacyClaim(evil, intruder, `${root}/internal`);
    const run = spawnSync('npx', ['tsx', 'scripts/claims-report.ts'], {
      encoding: 'utf8',
      env: { ...process.env, DYNAMODB_ENDPOINT: config().dynamoEndpoint, TABLE_NAME: s.table },
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `(shared)${root}/internal  API ${intruder} of organisation ${evil}: nests with another organisation ` +
        `with ${root} of organisation ${acme} (API ${books}); not served`,
    );
    expect(run.stdout).toContain(`(shared)${root}  API ${books} of organisation ${acme}: nests with another organisation`);
    expect(run.stdout).toMatch(/\d+ claims break the routing rules \(contract §13\)/);
  });
});

describe('an API pinned by the gateway (X-Gw-Api-Id with X-Gw-Listen-Path, as gwctl gateway nginx renders it)', () => {
  const pinned = (uri: string, apiId: string, listenPath: string, headers: Record<string, string> = {}) =>
    s.call('GET', '/gw/ext-authz/nginx', {
      headers: {
        'x-gw-authorization': GW_SECRET,
        'x-original-uri': uri,
        'x-original-method': 'GET',
        'x-gw-api-id': apiId,
        'x-gw-listen-path': listenPath,
        ...headers,
      },
    });

  it('answers the path after the listen path (X-Gw-Api-Path), and 404 for a decided path outside it', async () => {
    const root = `/${uid('pin')}`;
    const apiId = await api(acme, `${root}/`);
    const { key } = await makeKey(s, { org_id: acme, access_rights: rightsFor(apiId) });
    const ok = await pinned(`${root}/a/./b?x=1`, apiId, root, { authorization: key });
    expect([ok.status, ok.headers.get('x-gw-path'), ok.headers.get('x-gw-api-path')]).toEqual([200, `${root}/a/b`, '/a/b']);
    expect((await pinned(root, apiId, root, { authorization: key })).headers.get('x-gw-api-path')).toBe('/');
    expect((await pinned(`${root}/x/`, apiId, root, { authorization: key })).headers.get('x-gw-api-path')).toBe('/x/');
    const outside = await pinned(`${root}/../elsewhere`, apiId, root, { authorization: key });
    expect([outside.status, outside.body.reason]).toEqual([404, 'UnknownApi']);
  });

  it('X-Gw-Keyless answers the paths without a key only for an API that is keyless and active', async () => {
    const root = `/${uid('open')}`;
    const open = uid('open');
    const r = await s.gw('POST', '/gw/apis', {
      api_id: open,
      name: open,
      org_id: acme,
      use_keyless: true,
      proxy: { listen_path: `${root}/`, target_url: 'http://u.example' },
    });
    expect(r.status).toBe(200);
    const keyed = await api(acme, `/${uid('keyed')}/`);
    const freeRide = await pinned(`${root}/x`, open, root, { 'x-gw-keyless': '1' });
    expect([freeRide.status, freeRide.headers.get('x-gw-api-path')]).toEqual([200, '/x']);
    const keyedPath = (await s.gw('GET', `/gw/apis/${keyed}`)).body.proxy.listen_path.replace(/\/$/, '');
    expect((await pinned(`${keyedPath}/x`, keyed, keyedPath, { 'x-gw-keyless': '1' })).status).toBe(401);
  });
});
