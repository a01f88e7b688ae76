/**
 * An organisation's developer portal on its domain on the managed data plane (API Gateway),
 * against the emulator's account and its data plane serving what the reconciler made: a granted
 * domain whose portal names it gets a per-domain API (with no API of its own on it) whose keyless
 * routes send the portal's paths to the console's origin, here the local stage; another
 * organisation's portal and the dashboard's console are not reachable there; a portal turned off
 * takes the domain's API away on the next run. (Among the gateways' tests, not test/e2e: what the data plane answers is
 * not the service's answer that test/after/openapi-traffic.test.ts holds to the document.)
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/host/build';
import { createDataPlane } from '../../infra/local/emulator/data-plane';
import { reconcileDataPlane } from '../../shared/services/data-plane';
import { AUTHORIZER_URI, emulatedAccount } from '../support/apigw-account';
import { request } from '../support/client';
import { uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [acme, other] = useTenants(s, 2);
const { account, api } = emulatedAccount('*.tenant.test');
let dataPlane: Server;
let base: string;

beforeAll(async () => {
  ensureConsoleBuilt();
  dataPlane = createDataPlane({
    account,
    apiId: 'shared01',
    executeApiArn: 'arn:aws:execute-api:eu-west-1:0:shared01',
    invoke: () => Promise.reject(new Error('no portal route has an authorizer')),
  });
  await new Promise<void>((r) => dataPlane.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(dataPlane.address() as AddressInfo).port}`;
}, 600_000);
afterAll(() => new Promise((r) => dataPlane?.close(r)));

const via = (path: string, host: string) => request(base, 'GET', path, { headers: { host }, verbatim: true });

describe('the developer portal on its domain, on the managed data plane', () => {
  it("serves the portal's paths from the console's origin, and nothing else of the installation", async () => {
    const dom = `${uid('dev')}.tenant.test`;
    const target = { gatewayId: uid('apigw'), host: '', authorizerId: 'sharedauth' };
    const domains = { account: api, authorizerUri: AUTHORIZER_URI, namePrefix: 'dp', portalOrigin: s.url };
    expect((await s.admin('PUT', `/admin/organisations/${acme.orgId}/domains/${dom}`)).status).toBe(200);
    const on = { enabled: true, sign_up: 'open', title: 'Acme developers' };
    expect((await s.dash(acme.key, 'PUT', '/api/portal/settings', { ...on, domain: dom })).status).toBe(200);
    expect((await s.dash(other.key, 'PUT', '/api/portal/settings', on)).status).toBe(200);

    await reconcileDataPlane(account.api('shared01').state, target, domains);
    const own = [...account.apis.values()].filter((a) => a.Tags['gw:host'] === dom);
    expect(own).toHaveLength(1);
    expect([...own[0]!.state.integrationMap.values()].map((i) => i.IntegrationUri)).toEqual([s.url]);
    expect([...own[0]!.state.routeMap.values()].every((r) => (r.AuthorizationType ?? 'NONE') === 'NONE')).toBe(true);

    const page = await via(`/console/portal/${acme.orgId}/`, dom);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="app">');
    expect((await via(`/portal/${acme.orgId}/catalogue`, dom)).body.title).toBe('Acme developers');
    for (const path of [`/portal/${other.orgId}/catalogue`, `/console/portal/${other.orgId}/`, '/console/', '/api/apis'])
      expect((await via(path, dom)).status, path).toBe(404);
    // The shared data-plane API carries no portal.
    expect((await via(`/portal/${acme.orgId}/catalogue`, 'abc.execute-api.test')).status).toBe(404);

    // Off, the domain has nothing left to serve: its API goes on the next run.
    expect((await s.dash(acme.key, 'PUT', '/api/portal/settings', { ...on, enabled: false, domain: dom })).status).toBe(200);
    await reconcileDataPlane(account.api('shared01').state, target, domains);
    expect([...account.apis.values()].filter((a) => a.Tags['gw:host'] === dom)).toEqual([]);
  });
});
