/**
 * The API Gateway data-plane planner (shared/domain/apigw-plan.ts): the changes that make a
 * data-plane HTTP API's routes and integrations equal to the gateway model.
 */
import { describe, expect, it } from 'vitest';
import { type ApigwChange, type ApigwIntegration, type ApigwRoute, planDataPlane } from '../../shared/domain/apigw-plan';
import type { GatewayModel, GatewayRoute } from '../../shared/domain/gateway-model';
import { gatewayRoute } from '../support/gateway-route';

const route = gatewayRoute;
const model = (routes: GatewayRoute[], host = ''): GatewayModel => ({ hosts: [{ host, routes }], skipped: [] });
type State = { routes: ApigwRoute[]; integrations: ApigwIntegration[] };
const empty = (): State => ({ routes: [], integrations: [] });
const plan = (routes: GatewayRoute[], current: State = empty(), quotas?: { routesPerApi: number; integrationsPerApi: number }) =>
  planDataPlane({ model: model(routes), host: '', authorizerId: 'auth1', current, ...(quotas ? { quotas } : {}) });

/** What API Gateway does with each change, on an in-memory API (ids handed out in order). */
function apply(state: State, changes: ApigwChange[]): State {
  let next = 0;
  const s: State = { routes: [...state.routes], integrations: [...state.integrations] };
  const idOf = (description: string) => s.integrations.find((i) => i.Description === description)?.IntegrationId;
  for (const c of changes) {
    if (c.op === 'createIntegration') s.integrations.push({ IntegrationId: `i${next++}`, ...c.spec });
    if (c.op === 'updateIntegration') s.integrations = s.integrations.map((i) => (i.IntegrationId === c.integrationId ? { ...i, ...c.spec } : i));
    if (c.op === 'deleteIntegration') s.integrations = s.integrations.filter((i) => i.IntegrationId !== c.integrationId);
    if (c.op === 'deleteRoute') s.routes = s.routes.filter((r) => r.RouteId !== c.routeId);
    if (c.op === 'createRoute' || c.op === 'updateRoute') {
      const r: ApigwRoute = {
        RouteId: c.op === 'updateRoute' ? c.routeId : `r${next++}`,
        RouteKey: c.spec.RouteKey,
        Target: `integrations/${idOf(c.spec.integration)}`,
        AuthorizationType: c.spec.AuthorizationType,
        ...(c.spec.AuthorizerId ? { AuthorizerId: c.spec.AuthorizerId } : {}),
      };
      s.routes = c.op === 'updateRoute' ? s.routes.map((x) => (x.RouteId === c.routeId ? r : x)) : [...s.routes, r];
    }
  }
  return s;
}

describe('the API Gateway data-plane plan', () => {
  it('a keyed listen path: two routes with the authorizer, HTTP_PROXY integrations keeping the path, headers mapped', () => {
    const p = plan([route('books', '/books', { requestHeaders: { add: { 'X-From': 'gw' }, remove: ['Cookie'] }, upstreamTimeoutSeconds: 7 })]);
    expect(p.skipped).toEqual([]);
    const after = apply(empty(), p.changes);
    expect(after.routes.map((r) => [r.RouteKey, r.AuthorizationType, r.AuthorizerId])).toEqual([
      ['ANY /books', 'CUSTOM', 'auth1'],
      ['ANY /books/{proxy+}', 'CUSTOM', 'auth1'],
    ]);
    const proxy = after.integrations.find((i) => `integrations/${i.IntegrationId}` === after.routes[1]!.Target)!;
    expect(proxy).toMatchObject({
      IntegrationType: 'HTTP_PROXY',
      IntegrationMethod: 'ANY',
      IntegrationUri: 'http://up.example:8080',
      TimeoutInMillis: 7000,
      RequestParameters: { 'overwrite:path': '/base$request.path', 'overwrite:header.X-From': 'gw', 'remove:header.Cookie': "''" },
    });
  });

  it('a stripped listen path maps what follows it onto the upstream base; a keyless one has no authorizer', () => {
    const after = apply(empty(), plan([route('pets', '/pets', { stripListenPath: true, key: { keyless: true } })]).changes);
    expect(after.routes.map((r) => [r.RouteKey, r.AuthorizationType, r.AuthorizerId])).toEqual([
      ['ANY /pets', 'NONE', undefined],
      ['ANY /pets/{proxy+}', 'NONE', undefined],
    ]);
    const paths = after.routes.map((r) => after.integrations.find((i) => r.Target === `integrations/${i.IntegrationId}`)!.RequestParameters!['overwrite:path']);
    expect(paths).toEqual(['/base', '/base/$request.path.proxy']);
  });

  it('is idempotent: the plan applied, the next plan is empty', () => {
    const routes = [route('a', '/a'), route('b', '/b/c', { stripListenPath: true })];
    const after = apply(empty(), plan(routes).changes);
    expect(after.routes).toHaveLength(4);
    expect(after.integrations).toHaveLength(4);
    expect(plan(routes, after).changes).toEqual([]);
  });

  it('repairs drift: a changed integration is updated, a foreign route and integration deleted, a lost route recreated', () => {
    const routes = [route('a', '/a')];
    const good = apply(empty(), plan(routes).changes);
    const drifted: State = {
      routes: [...good.routes.slice(1), { RouteId: 'x', RouteKey: 'GET /hand-made', Target: 'integrations/y' }],
      integrations: [
        { ...good.integrations[0]!, IntegrationUri: 'http://elsewhere' },
        ...good.integrations.slice(1),
        { IntegrationId: 'y', IntegrationType: 'AWS_PROXY' },
      ],
    };
    const p = plan(routes, drifted);
    expect(p.changes.map((c) => c.op)).toEqual(['updateIntegration', 'createRoute', 'deleteRoute', 'deleteIntegration']);
    const repaired = apply(drifted, p.changes);
    expect(plan(routes, repaired).changes).toEqual([]);
    expect(repaired.routes.map((r) => r.RouteKey).sort()).toEqual(['ANY /a', 'ANY /a/{proxy+}']);
  });

  it('a deleted or keyless-turned API: its routes go, or lose the authorizer', () => {
    const live = apply(empty(), plan([route('a', '/a'), route('b', '/b')]).changes);
    const p = plan([route('a', '/a', { key: { keyless: true } })], live);
    const after = apply(live, p.changes);
    expect(after.routes.map((r) => [r.RouteKey, r.AuthorizationType])).toEqual([
      ['ANY /a', 'NONE'],
      ['ANY /a/{proxy+}', 'NONE'],
    ]);
    expect(after.integrations).toHaveLength(2);
  });

  it('past the routes quota the newest listen paths are refused with the reason, and live ones keep their place', () => {
    const quotas = { routesPerApi: 4, integrationsPerApi: 300 };
    const live = apply(empty(), plan([route('m', '/m'), route('n', '/n')], empty(), quotas).changes);
    const p = plan([route('a', '/a'), route('m', '/m'), route('n', '/n')], live, quotas);
    expect(p.changes).toEqual([]);
    expect(p.skipped).toEqual([{ apiId: 'a', listenPath: '/a', reason: 'the data-plane API is full (4 routes per API)' }]);
    expect(plan([route('a', '/a')], empty(), { routesPerApi: 300, integrationsPerApi: 1 }).skipped[0]!.reason).toBe(
      'the data-plane API is full (1 integrations per API)',
    );
  });

  it('the default quotas are API Gateway documented ones: 150 listen paths fill the 300 routes', () => {
    const many = Array.from({ length: 151 }, (_, i) => route(`api${String(i).padStart(3, '0')}`, `/p${i}`));
    const p = plan(many);
    expect(p.changes.filter((c) => c.op === 'createRoute')).toHaveLength(300);
    expect(p.skipped.map((s) => s.apiId)).toEqual(['api150']);
  });

  it('a route API Gateway cannot express is reported and left out whole', () => {
    const p = plan([
      route('lb', '/lb', { upstreams: [route('', '').upstreams[0]!, { scheme: 'http', host: 'b', port: 80, basePath: '' }] }),
      route('host', '/host', { preserveHost: true }),
      route('reserved', '/r', { requestHeaders: { add: { Host: 'x' }, remove: [] } }),
      route('dollar', '/d', { requestHeaders: { add: { 'X-A': '$context.requestId' }, remove: [] } }),
      route('brace', '/{x}'),
      route('slow', '/slow', { upstreamTimeoutSeconds: 60 }),
      route('big', '/big', { requestHeaders: { add: { 'X-A': 'a'.repeat(3000), 'X-B': 'b'.repeat(3000) }, remove: [] } }),
      route('ok', '/ok', { requestHeaders: { add: { 'X-A': 'a'.repeat(3000) }, remove: [] } }),
    ]);
    expect(p.skipped.map((s) => s.apiId).sort()).toEqual(['big', 'brace', 'dollar', 'host', 'lb', 'reserved', 'slow']);
    expect(p.skipped.find((s) => s.apiId === 'big')?.reason).toContain('6006 bytes of the 10240');
    expect(apply(empty(), p.changes).routes.map((r) => r.RouteKey)).toEqual(['ANY /ok', 'ANY /ok/{proxy+}']);
  });

  it('serves only its host: routes of an owned domain are not on the shared data-plane API', () => {
    const p = planDataPlane({ model: model([route('a', '/a')], 'acme.example'), host: '', authorizerId: 'auth1', current: empty() });
    expect(p.changes).toEqual([]);
  });
});
