/**
 * The API Gateway data plane's reconciler (shared/services/data-plane.ts) against a data-plane
 * API's state as API Gateway keeps it (infra/local/emulator/data-plane-state.ts): the stage's
 * definitions become routes and HTTP_PROXY integrations, a change moves only what it changes, a
 * run that finds nothing to do writes nothing, and the reconciler reports itself like any gateway.
 */
import { describe, expect, it } from 'vitest';
import { DataPlaneState } from '../../infra/local/emulator/data-plane-state';
import { reconcileDataPlane } from '../../shared/services/data-plane';
import { uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [t] = useTenants(s, 1);
const target = { gatewayId: uid('apigw'), host: '', authorizerId: 'authz01' };

const classic = (apiId: string, proxy: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  s.gw('POST', '/gw/apis', { api_id: apiId, name: apiId, org_id: t.orgId, proxy, ...extra });
const byKey = (state: DataPlaneState) => new Map([...state.routeMap.values()].map((r) => [r.RouteKey, r]));
const integrationOf = (state: DataPlaneState, routeTarget: string | undefined) => state.integrationMap.get(String(routeTarget).replace('integrations/', ''));

describe('the data-plane reconciler', () => {
  it('makes the API equal to the routing table: two routes per listen path, the authorizer on keyed ones only; a second run changes nothing', async () => {
    const keyed = uid('dpk');
    const open = uid('dpo');
    expect((await classic(keyed, { listen_path: `/${keyed}/`, target_url: 'http://upstream.example:8080/base', strip_listen_path: true })).status).toBe(200);
    expect((await classic(open, { listen_path: `/${open}/`, target_url: 'https://open.example' }, { use_keyless: true })).status).toBe(200);
    const state = new DataPlaneState();

    const first = await reconcileDataPlane(state, target);
    expect(first.changes).toBeGreaterThanOrEqual(8);
    const routes = byKey(state);
    expect(routes.get(`ANY /${keyed}`)).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: 'authz01' });
    expect(routes.get(`ANY /${keyed}/{proxy+}`)).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: 'authz01' });
    expect(routes.get(`ANY /${open}/{proxy+}`)).toMatchObject({ AuthorizationType: 'NONE' });
    expect(routes.get(`ANY /${open}/{proxy+}`)).not.toHaveProperty('AuthorizerId');
    // Stripped: what follows the listen path goes after the upstream's base path; not stripped: the whole path.
    expect(integrationOf(state, routes.get(`ANY /${keyed}/{proxy+}`)?.Target)).toMatchObject({
      IntegrationType: 'HTTP_PROXY',
      IntegrationUri: 'http://upstream.example:8080',
      RequestParameters: { 'overwrite:path': '/base/$request.path.proxy' },
    });
    expect(integrationOf(state, routes.get(`ANY /${open}/{proxy+}`)?.Target)).toMatchObject({
      IntegrationUri: 'https://open.example',
      RequestParameters: { 'overwrite:path': '$request.path' },
    });

    state.calls.length = 0;
    expect((await reconcileDataPlane(state, target)).changes).toBe(0);
    expect(state.calls.sort()).toEqual(['GetIntegrations', 'GetRoutes']);
  });

  it("follows changes: a new target updates only that API's integrations, a deleted API's routes and integrations go", async () => {
    const moving = uid('dpm');
    const staying = uid('dps');
    for (const id of [moving, staying]) expect((await classic(id, { listen_path: `/${id}/`, target_url: 'http://one.example' })).status).toBe(200);
    const state = new DataPlaneState();
    await reconcileDataPlane(state, target);
    const stayingIntegrations = JSON.stringify(
      [...state.integrationMap.values()].filter((i) => i.Description?.includes(staying)).sort((a, b) => a.IntegrationId.localeCompare(b.IntegrationId)),
    );

    const put = await s.dash(t.key, 'PUT', `/api/apis/${moving}`, {
      api_definition: { api_id: moving, name: moving, proxy: { listen_path: `/${moving}/`, target_url: 'http://two.example' } },
    });
    expect(put.status, put.text).toBe(200);
    state.calls.length = 0;
    await reconcileDataPlane(state, target);
    expect(state.calls.filter((c) => !c.startsWith('Get')).sort()).toEqual(['UpdateIntegration', 'UpdateIntegration']);
    expect(integrationOf(state, byKey(state).get(`ANY /${moving}/{proxy+}`)?.Target)?.IntegrationUri).toBe('http://two.example');
    expect(
      JSON.stringify(
        [...state.integrationMap.values()].filter((i) => i.Description?.includes(staying)).sort((a, b) => a.IntegrationId.localeCompare(b.IntegrationId)),
      ),
    ).toBe(stayingIntegrations);

    expect((await s.gw('DELETE', `/gw/apis/${moving}`)).status).toBe(200);
    await reconcileDataPlane(state, target);
    expect([...byKey(state).keys()].filter((k) => k.includes(moving))).toEqual([]);
    expect([...state.integrationMap.values()].filter((i) => i.Description?.includes(moving))).toEqual([]);
    expect(byKey(state).has(`ANY /${staying}/{proxy+}`)).toBe(true);
  });

  it('reports itself: the API page shows it applied; a failing run reports its error and the table it still serves, the next good run clears it', async () => {
    const apiId = uid('dpr');
    const lb = uid('dplb');
    expect((await classic(apiId, { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' })).status).toBe(200);
    const balanced = await classic(lb, {
      listen_path: `/${lb}/`,
      target_url: 'http://a.example',
      enable_load_balancing: true,
      target_list: ['http://a.example', 'http://b.example'],
    });
    expect(balanced.status, balanced.text).toBe(200);
    const state = new DataPlaneState();
    const applied = await reconcileDataPlane(state, target);
    expect(applied.skipped).toContainEqual({ api_id: lb, reason: expect.stringContaining('one upstream') });
    const page = async (id: string) => {
      const r = await s.dash(t.key, 'GET', `/api/apis/${id}/gateways`);
      expect(r.status, r.text).toBe(200);
      return (r.body.gateways as Array<Record<string, unknown>>).find((g) => g.gateway_id === target.gatewayId);
    };
    expect(await page(apiId)).toMatchObject({ kind: 'api-gateway', state: 'applied' });
    expect(await page(lb)).toMatchObject({ state: 'left_out', reason: expect.stringContaining('one upstream') });

    const later = uid('dpl');
    expect((await classic(later, { listen_path: `/${later}/`, target_url: 'http://upstream.example' })).status).toBe(200);
    const failing = Object.assign(Object.create(state) as DataPlaneState, {
      createRoute: () => Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' })),
    });
    await expect(reconcileDataPlane(failing, target)).rejects.toThrow('Rate exceeded');
    expect(await page(later)).toMatchObject({ state: 'pending', reason: expect.stringContaining('failed to apply') });
    expect(await page(apiId)).toMatchObject({ state: 'applied' });

    await reconcileDataPlane(state, target);
    expect(await page(later)).toMatchObject({ state: 'applied', reason: null });
  });
});
