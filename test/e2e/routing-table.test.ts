/**
 * The routing table gateways follow (GET /gw/routing, GET /gw/routing/version): the gateway model
 * of every stored definition and domain grant, and the version that moves with each change.
 * What each definition member becomes: test/unit/gateway-model.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [acme, evil] = useTenants(s, 2);

const version = async () => (await s.gw('GET', '/gw/routing/version')).body.version as number;
const table = async () => (await s.gw('GET', '/gw/routing')).body;
const routeOf = async (apiId: string) => {
  const t = await table();
  for (const h of t.hosts) for (const r of h.routes) if (r.apiId === apiId) return { host: h.host, ...r };
  return undefined;
};

describe('GET /gw/routing', () => {
  it("holds each organisation's routes per host, longest listen path first, and says what it left out", async () => {
    const dom = `${uid('acme')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${acme.orgId}/domains/${dom}`)).status).toBe(200);
    const root = `/${uid('books')}`;
    const books = uid('books');
    const admin = uid('admin');
    const site = uid('site');
    const off = uid('off');
    const mk = (key: string, def: Record<string, unknown>) => s.dash(key, 'POST', '/api/apis', { api_definition: def });
    expect(
      (await mk(acme.key, { api_id: books, name: 'b', proxy: { listen_path: `${root}/`, target_url: 'https://books.internal/v1', strip_listen_path: true } }))
        .status,
    ).toBe(200);
    expect((await mk(acme.key, { api_id: admin, name: 'a', proxy: { listen_path: `${root}/admin/`, target_url: 'http://admin.internal:8080' } })).status).toBe(
      200,
    );
    expect(
      (await mk(acme.key, { api_id: site, name: 's', domain: dom, use_keyless: true, proxy: { listen_path: '/', target_url: 'http://site.internal' } })).status,
    ).toBe(200);
    expect((await mk(evil.key, { api_id: off, name: 'o', active: false, proxy: { listen_path: `/${off}/`, target_url: 'http://off.internal' } })).status).toBe(
      200,
    );

    const t = await table();
    expect(t.version).toBe(await version());
    const shared = t.hosts.find((h: { host: string }) => h.host === '');
    const ours = shared.routes.filter((r: { listenPath: string }) => r.listenPath.startsWith(root)).map((r: { apiId: string }) => r.apiId);
    expect(ours).toEqual([admin, books]);
    expect(await routeOf(books)).toMatchObject({
      host: '',
      orgId: acme.orgId,
      listenPath: root,
      upstreams: [{ scheme: 'https', host: 'books.internal', port: 443, basePath: '/v1' }],
      stripListenPath: true,
      key: { keyless: false, header: 'Authorization' },
    });
    expect(await routeOf(site)).toMatchObject({ host: dom, listenPath: '/', key: { keyless: true } });
    expect(t.skipped).toContainEqual({ apiId: off, orgId: evil.orgId, reason: 'it is inactive' });
  });

  it('the version moves with every write of a definition and every grant or revoke, and only then', async () => {
    const v0 = await version();
    expect(await version()).toBe(v0);
    const api = uid('v');
    expect(
      (await s.dash(acme.key, 'POST', '/api/apis', { api_definition: { api_id: api, name: 'v', proxy: { listen_path: `/${api}/`, target_url: 'http://a' } } }))
        .status,
    ).toBe(200);
    const v1 = await version();
    expect(v1).toBeGreaterThan(v0);
    expect((await routeOf(api))?.upstreams[0].host).toBe('a');
    expect(
      (
        await s.dash(acme.key, 'PUT', `/api/apis/${api}`, {
          api_definition: { api_id: api, name: 'v', proxy: { listen_path: `/${api}/`, target_url: 'http://b' } },
        })
      ).status,
    ).toBe(200);
    const v2 = await version();
    expect(v2).toBeGreaterThan(v1);
    expect((await routeOf(api))?.upstreams[0].host).toBe('b');
    const dom = `${uid('v')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${acme.orgId}/domains/${dom}`)).status).toBe(200);
    const v3 = await version();
    expect(v3).toBeGreaterThan(v2);
    expect((await s.admin('DELETE', `/admin/organisations/${acme.orgId}/domains/${dom}`)).status).toBe(200);
    expect(await version()).toBeGreaterThan(v3);
    expect((await s.dash(acme.key, 'DELETE', `/api/apis/${api}`)).status).toBe(200);
    expect(await routeOf(api)).toBeUndefined();
    // A refused write moves nothing.
    const before = await version();
    expect((await s.dash(acme.key, 'POST', '/api/apis', { api_definition: { api_id: uid('x'), name: 'x', proxy: { listen_path: '/' } } })).status).toBe(400);
    expect(await version()).toBe(before);
  });

  it('only the gateway credential reads it', async () => {
    expect((await s.dash(acme.key, 'GET', '/gw/routing')).status).toBe(401);
    expect((await s.admin('GET', '/gw/routing/version')).status).toBe(401);
  });
});
