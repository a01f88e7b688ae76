/**
 * An organisation's developer portal on a domain of its own (shared/domain/portal-host.ts): the
 * routing table carries it only on a domain granted to that organisation now, an API cannot take
 * the portal's paths there, and gwctl's nginx file sends exactly those paths to the control plane.
 */
import { describe, expect, it } from 'vitest';
import { recordFromClassic } from '../../shared/domain/api-builders';
import { planDomains } from '../../shared/domain/apigw-domains';
import { planDataPlane } from '../../shared/domain/apigw-plan';
import { gatewayModel } from '../../shared/domain/gateway-model';
import { renderNginx } from '../../tools/gwctl/gateway/nginx-config';

const NOW = '2026-11-28T00:00:00.000Z';
const api = (apiId: string, org: string, listen_path: string, domain?: string) =>
  recordFromClassic({ api_id: apiId, org_id: org, proxy: { listen_path, target_url: 'http://up.example:8080' }, ...(domain ? { domain } : {}) }, NOW);
const grants = new Map([
  ['dev.acme.example', 'acme'],
  ['dev.other.example', 'other'],
]);
const portal = (org_id: string, domain: string, enabled = true) => ({ org_id, domain, enabled });

describe('the portal in the routing table', () => {
  it("is on a domain only while the domain is granted to the portal's organisation and the portal is on", () => {
    const model = gatewayModel([], grants, [
      portal('acme', 'dev.acme.example'),
      portal('evil', 'dev.other.example'), // names a domain granted to another organisation
      portal('other', 'dev.nobody.example'), // names a domain granted to nobody (revoked since)
      portal('quiet', 'dev.quiet.example', false),
    ]);
    expect(model.hosts.map((h) => [h.host, h.portal?.orgId])).toEqual([['dev.acme.example', 'acme']]);
    expect(model.hosts[0]!.portal).toEqual({
      orgId: 'acme',
      home: '/console/portal/acme/',
      paths: ['/portal/acme/', '/console/portal/acme/', '/console/assets/', '/console/favicon.svg'],
      reserved: ['/portal/acme', '/console'],
    });
  });

  it("leaves out an API of the domain that would take the portal's paths, and serves the rest beside it", () => {
    const apis = [
      api('pets', 'acme', '/pets/', 'dev.acme.example'),
      api('under', 'acme', '/portal/acme/v1/', 'dev.acme.example'),
      api('console', 'acme', '/console/', 'dev.acme.example'),
      api('parent', 'acme', '/portal/', 'dev.acme.example'),
    ];
    const model = gatewayModel(apis, grants, [portal('acme', 'dev.acme.example')]);
    expect(model.hosts[0]!.routes.map((r) => r.apiId).sort()).toEqual(['parent', 'pets']);
    expect(model.skipped.map((s) => [s.apiId, s.reason])).toEqual([
      ['console', "the organisation's developer portal takes /console on dev.acme.example"],
      ['under', "the organisation's developer portal takes /portal/acme/v1 on dev.acme.example"],
    ]);
    // Without the portal the same APIs are all served.
    expect(gatewayModel(apis, grants).skipped).toEqual([]);
  });
});

describe("gwctl's nginx file for a portal's domain", () => {
  const options = { listen: '8000', sharedNames: ['127.0.0.1'], control: { scheme: 'http' as const, hostPort: '127.0.0.1:9000' }, gatewaySecret: 'gw-secret' };
  const serverOf = (text: string, host: string) => text.slice(text.indexOf(`server_name ${host};`)).split('\nserver {')[0]!;

  it("sends the portal's paths to the control plane with the viewer vouched for, leads / to the portal, and 404s the rest of /console/", () => {
    const table = {
      version: 3,
      changed_at: null,
      ...gatewayModel([api('pets', 'acme', '/pets/', 'dev.acme.example')], grants, [portal('acme', 'dev.acme.example')]),
    };
    const server = serverOf(renderNginx(table, options).text, 'dev.acme.example');
    for (const p of ['^~ /portal/acme/', '^~ /console/portal/acme/', '^~ /console/assets/', '= /console/favicon.svg']) {
      const block = server.slice(server.indexOf(`location ${p} {`)).split('\n    }')[0]!;
      expect(block, p).toContain('proxy_pass http://gw_control;');
      expect(block, p).toContain('proxy_set_header X-Gw-Viewer-Address $remote_addr;');
      expect(block, p).toContain('proxy_set_header X-Gw-Authorization "gw-secret";');
      expect(block, p).toContain('if ($request_uri ~* "%2f|%2e|%5c") { return 400; }');
    }
    expect(server).toContain('location = / { absolute_redirect off; return 302 /console/portal/acme/; }');
    expect(server).toContain('location ^~ /console/ {');
    expect(server).toContain('location ^~ /pets/ {');
    // Another organisation's portal is nowhere in this server.
    expect(server).not.toMatch(/\/portal\/(?!acme\/)[^ ]+\/ \{/);
  });

  it('leaves / to an API that listens there, and serves a portal on a domain without any API', () => {
    const withRoot = {
      version: 1,
      changed_at: null,
      ...gatewayModel([api('home', 'acme', '/', 'dev.acme.example')], grants, [portal('acme', 'dev.acme.example')]),
    };
    expect(serverOf(renderNginx(withRoot, options).text, 'dev.acme.example')).not.toContain('location = / {');
    const alone = { version: 1, changed_at: null, ...gatewayModel([], grants, [portal('acme', 'dev.acme.example')]) };
    const server = serverOf(renderNginx(alone, options).text, 'dev.acme.example');
    expect(server).toContain('location = / { absolute_redirect off; return 302 /console/portal/acme/; }');
    expect(server).not.toContain('@gw_refused');
  });
});

describe("the managed data plane on a portal's domain", () => {
  const ORIGIN = 'https://console.example.net';
  const table = (apis: ReturnType<typeof api>[] = []) => gatewayModel(apis, grants, [portal('acme', 'dev.acme.example')]);
  const planFor = (o: { apis?: ReturnType<typeof api>[]; origin?: string; quotas?: { routesPerApi: number; integrationsPerApi: number } }) =>
    planDataPlane({
      model: table(o.apis),
      host: 'dev.acme.example',
      authorizerId: 'auth1',
      current: { routes: [], integrations: [] },
      ...(o.origin ? { portalOrigin: o.origin } : {}),
      ...(o.quotas ? { quotas: o.quotas } : {}),
    });

  it("sends the portal's paths, keyless, to the console's origin with the path as it came", () => {
    const changes = planFor({ origin: ORIGIN }).changes;
    const integrations = changes.flatMap((c) => (c.op === 'createIntegration' ? [c.spec] : []));
    expect(integrations).toEqual([
      expect.objectContaining({
        Description: 'gw:acme:portal',
        IntegrationType: 'HTTP_PROXY',
        IntegrationUri: ORIGIN,
        RequestParameters: { 'overwrite:path': '$request.path' },
      }),
    ]);
    const routes = changes.flatMap((c) => (c.op === 'createRoute' ? [c.spec] : []));
    expect(routes.map((r) => r.RouteKey).sort()).toEqual([
      'ANY /console/assets',
      'ANY /console/assets/{proxy+}',
      'ANY /console/favicon.svg',
      'ANY /console/portal/acme',
      'ANY /console/portal/acme/{proxy+}',
      'ANY /portal/acme',
      'ANY /portal/acme/{proxy+}',
    ]);
    expect(routes.every((r) => r.AuthorizationType === 'NONE' && r.integration === 'gw:acme:portal')).toBe(true);
    // Without the origin (the reconciler's setting unset) the domain carries no portal route.
    expect(planFor({}).changes).toEqual([]);
  });

  it("keeps the portal's integration apart from an API's whatever their ids (an API called portal of an organisation called bare)", () => {
    const bare = new Map([['dev.bare.example', 'bare']]);
    const model = gatewayModel([api('portal', 'bare', '/pets/', 'dev.bare.example')], bare, [portal('bare', 'dev.bare.example')]);
    const p = planDataPlane({ model, host: 'dev.bare.example', authorizerId: 'a1', current: { routes: [], integrations: [] }, portalOrigin: ORIGIN });
    const integrations = p.changes.flatMap((c) => (c.op === 'createIntegration' ? [c.spec] : []));
    expect(integrations).toHaveLength(3);
    expect(new Set(integrations.map((i) => i.Description)).size).toBe(3);
    const routes = p.changes.flatMap((c) => (c.op === 'createRoute' ? [c.spec] : []));
    const target = (key: string) => integrations.find((i) => i.Description === routes.find((r) => r.RouteKey === key)!.integration)!.IntegrationUri;
    expect(target('ANY /portal/bare/{proxy+}')).toBe(ORIGIN);
    expect(target('ANY /pets')).toBe('http://up.example:8080');
  });

  it('keeps the portal past the quota: an API of the domain is left out first', () => {
    const p = planFor({ origin: ORIGIN, apis: [api('pets', 'acme', '/pets/', 'dev.acme.example')], quotas: { routesPerApi: 8, integrationsPerApi: 300 } });
    expect(p.skipped.map((x) => x.apiId)).toEqual(['pets']);
    expect(p.changes.filter((c) => c.op === 'createRoute')).toHaveLength(7);
  });

  it('serves a domain for its portal alone, with a certificate, only where the reconciler knows the origin', () => {
    const certificates = [{ arn: 'arn:cert', names: ['*.acme.example'] }];
    const base = { model: table(), certificates, domainNames: [], apis: [] };
    expect(planDomains({ ...base, servesPortals: true }).serve.map((d) => d.host)).toEqual(['dev.acme.example']);
    expect(planDomains(base).serve).toEqual([]);
  });
});
