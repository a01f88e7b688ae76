/**
 * The managed data plane through `npm run emulate` (docs/operating/data-plane.md): the stack
 * synthesized with `-c dataPlane=on`, IAM enforced. A dashboard user creates an API; within 5 s the
 * reconciler (its scheduled run, as no stream feeds emulated functions) has made its routes on the
 * data-plane API, and a request with a key goes through the data plane's Lambda authorizer and
 * HTTP_PROXY integration to the upstream, with the listen path stripped as defined; the quota holds;
 * a deleted API is 404; no function is refused an action by its policy. An organisation's granted
 * domain, with a certificate in (emulated) ACM, is served from a per-domain API behind a custom
 * domain name: by the request's Host, never the shared hosts' API of the same listen path.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { cloudAssembly, FULL_CONTEXT } from '../support/assembly';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/receiver';
import { linesOf, startEmulatedStage, type EmulatedStage } from '../support/stage';

let s: EmulatedStage;
let upstream: Receiver;
let dataPlane: string;
let t: { orgId: string; key: string };
beforeAll(async () => {
  const template = (await cloudAssembly(FULL_CONTEXT)).template;
  const port = await freePort();
  dataPlane = `http://127.0.0.1:${port}`;
  s = await startEmulatedStage(template, { DATA_PLANE_PORT: String(port), SCHEDULE_SECONDS: '1', ACM_CERTIFICATES: '*.tenant.test' });
  upstream = await startReceiver();
  t = await s.tenant();
}, 1_800_000);
afterAll(async () => {
  await upstream?.close();
  await s?.close();
});

const through = (path: string, key?: string) => fetch(`${dataPlane}${path}`, { headers: key ? { authorization: key } : {} });

/** A request on the data plane with a Host of its own (fetch sets the Host from the URL). */
const onHost = (host: string, path: string, key: string) =>
  new Promise<number>((resolve, reject) => {
    const url = new URL(dataPlane);
    const r = request({ host: url.hostname, port: url.port, path, headers: { host, authorization: key } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end();
  });

describe('-c dataPlane=on through npm run emulate', () => {
  it('serves a definition written with the dashboard key within 5 s: authorizer, quota, stripped path, upstream; deleted is 404', async () => {
    const apiId = uid('dp');
    const made = await s.dash(t.key, 'POST', '/api/apis', {
      api_definition: {
        api_id: apiId,
        name: apiId,
        proxy: { listen_path: `/${apiId}/`, target_url: `${new URL(upstream.url).origin}/base`, strip_listen_path: true },
      },
    });
    expect(made.status, made.text).toBe(200);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 2, quota_renewal_rate: 3600 });

    const written = Date.now();
    await vi.waitFor(async () => expect((await through(`/${apiId}/pets/1?x=1`, key)).status).toBe(200), { timeout: 5_000, interval: 100 });
    expect(Date.now() - written).toBeLessThan(5_000);
    expect(upstream.calls.at(-1)).toMatchObject({ method: 'GET', url: '/base/pets/1?x=1' });

    // The second unit of a quota of two, then API Gateway's 403 (an authorizer can only deny); no key is 401.
    expect((await through(`/${apiId}/pets/2`, key)).status).toBe(200);
    const spent = await through(`/${apiId}/pets/3`, key);
    expect(spent.status).toBe(403);
    expect(await spent.json()).toEqual({ message: 'Forbidden' });
    expect((await through(`/${apiId}/pets/4`)).status).toBe(401);
    expect(upstream.calls).toHaveLength(2);

    expect((await s.dash(t.key, 'DELETE', `/api/apis/${apiId}`)).status).toBe(200);
    await vi.waitFor(async () => expect((await through(`/${apiId}/pets/1`, key)).status).toBe(404), { timeout: 5_000, interval: 100 });
    expect(linesOf(s, 'DENIED')).toEqual([]);
  });

  it("serves an organisation's granted domain from an API of its own, and only its APIs there", async () => {
    const other = await s.tenant();
    const dom = `${uid('shop')}.tenant.test`;
    expect((await s.admin('PUT', `/admin/organisations/${t.orgId}/domains/${dom}`)).status).toBe(200);
    const path = `/${uid('same')}/`;
    const mine = uid('mine');
    const theirs = uid('theirs');
    const target = `${new URL(upstream.url).origin}`;
    const make = (key: string, id: string, domain?: string) =>
      s.dash(key, 'POST', '/api/apis', {
        api_definition: { api_id: id, name: id, ...(domain ? { domain } : {}), proxy: { listen_path: path, target_url: `${target}/${id}` } },
      });
    expect((await make(t.key, mine, dom)).status).toBe(200);
    expect((await make(other.key, theirs)).status).toBe(200);
    const { key: myKey } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(mine) });
    const { key: theirKey } = await makeKey(s, { org_id: other.orgId, access_rights: rightsFor(theirs) });

    await vi.waitFor(async () => expect(await onHost(dom, `${path}a`, myKey)).toBe(200), { timeout: 10_000, interval: 200 });
    expect(upstream.calls.at(-1)).toMatchObject({ url: `/${mine}${path}a` });
    expect(await onHost(dom, `${path}b`, theirKey)).toBe(403);
    await vi.waitFor(async () => expect((await through(`${path}c`, theirKey)).status).toBe(200), { timeout: 10_000, interval: 200 });
    expect(upstream.calls.at(-1)).toMatchObject({ url: `/${theirs}${path}c` });
    expect((await through(`${path}d`, myKey)).status).toBe(403);

    expect((await s.admin('DELETE', `/admin/organisations/${t.orgId}/domains/${dom}`)).status).toBe(200);
    // The domain name goes with its mapping: the host falls through to the shared API, where the path is the other organisation's.
    await vi.waitFor(async () => expect(await onHost(dom, `${path}e`, myKey)).toBe(403), { timeout: 10_000, interval: 200 });
    expect(linesOf(s, 'DENIED')).toEqual([]);
  });
});
