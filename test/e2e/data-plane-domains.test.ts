/**
 * Owned domains on the API Gateway data plane (shared/services/data-plane-domains.ts) against the
 * emulator's account (infra/local/emulator/apigw-account.ts): a granted domain with a certificate
 * gets a per-domain API (execute-api endpoint off), the data-plane authorizer, a custom domain name
 * and one API mapping; its routes are its own, never the shared API's; a domain without a
 * certificate is reported; a crash half-way is finished by the next run; a revoked domain's
 * mapping, domain name and API go.
 */
import { describe, expect, it } from 'vitest';
import { reconcileDataPlane } from '../../shared/services/data-plane';
import { AUTHORIZER_URI, emulatedAccount } from '../support/apigw-account';
import { uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [acme, evil] = useTenants(s, 2);

const create = (key: string, apiId: string, listenPath: string, target: string, domain?: string) =>
  s.dash(key, 'POST', '/api/apis', {
    api_definition: { api_id: apiId, name: apiId, ...(domain ? { domain } : {}), proxy: { listen_path: listenPath, target_url: target } },
  });
const grant = (orgId: string, domain: string) => s.admin('PUT', `/admin/organisations/${orgId}/domains/${domain}`);
const routeKeys = (state: { routeMap: Map<string, { RouteKey: string }> }) => [...state.routeMap.values()].map((r) => r.RouteKey).sort();

describe('owned domains on the data plane', () => {
  it('serves a granted domain with a certificate from an API of its own; the shared API never holds its routes', async () => {
    const dom = `${uid('shop')}.tenant.test`;
    const bare = `${uid('bare')}.nocert.test`;
    const { account, api, calls } = emulatedAccount('*.tenant.test');
    const target = { gatewayId: uid('apigw'), host: '', authorizerId: 'sharedauth' };
    const domains = { account: api, authorizerUri: AUTHORIZER_URI, namePrefix: 'dp' };
    for (const [org, d] of [
      [acme.orgId, dom],
      [acme.orgId, bare],
    ] as const)
      expect((await grant(org, d)).status).toBe(200);
    const same = `/${uid('same')}/`;
    const mine = uid('mine');
    const theirs = uid('theirs');
    const nocert = uid('nocert');
    expect((await create(acme.key, mine, same, 'http://acme.internal', dom)).status).toBe(200);
    expect((await create(evil.key, theirs, same, 'http://evil.internal')).status).toBe(200);
    expect((await create(acme.key, nocert, `/${uid('nc')}/`, 'http://acme.internal', bare)).status).toBe(200);

    const run = await reconcileDataPlane(account.api('shared01').state, target, domains);
    const own = [...account.apis.values()].filter((a) => a.ApiId !== 'shared01');
    expect(own).toHaveLength(1);
    const [domApi] = own;
    expect(domApi).toMatchObject({ Name: `dp-${dom}`, DisableExecuteApiEndpoint: true, Tags: { 'gw:role': 'data-plane-domain', 'gw:host': dom } });
    expect([...domApi!.stages]).toEqual(['$default']);
    const [authorizerId, authorizer] = [...domApi!.authorizers][0]!;
    expect(authorizer).toMatchObject({ functionId: 'Authz', ttlSeconds: 0, identitySource: [{ from: 'header', name: 'authorization' }] });
    // Its routes are the domain's, behind its own authorizer; the shared API has evil's route of the same path, not acme's.
    const base = same.slice(0, -1);
    expect(routeKeys(domApi!.state)).toEqual([`ANY ${base}`, `ANY ${base}/{proxy+}`]);
    expect([...domApi!.state.routeMap.values()].every((r) => r.AuthorizerId === authorizerId)).toBe(true);
    expect([...domApi!.state.integrationMap.values()].map((i) => i.IntegrationUri)).toEqual(['http://acme.internal', 'http://acme.internal']);
    const shared = account.api('shared01').state;
    expect([...shared.integrationMap.values()].filter((i) => i.Description?.includes(mine))).toEqual([]);
    expect([...shared.integrationMap.values()].filter((i) => i.Description?.includes(theirs))).toHaveLength(2);
    // The custom domain name with the covering certificate, mapped to the domain's API; nothing for the domain without one.
    const name = account.domainName(dom);
    expect(name.CertificateArn).toBe(account.certificates[0]!.arn);
    expect([...name.mappings.values()]).toEqual([expect.objectContaining({ ApiId: domApi!.ApiId, Stage: '$default' })]);
    expect(account.domainNames.has(bare)).toBe(false);
    expect(run.skipped).toContainEqual({ api_id: nocert, reason: expect.stringContaining(`no issued ACM certificate covers ${bare}`) });
    // The host routing of the emulated data plane: the domain reaches its API, any other host the shared one.
    expect(account.serving(`${dom}:443`, 'shared01')?.ApiId).toBe(domApi!.ApiId);
    expect(account.serving('abc.execute-api.test', 'shared01')?.ApiId).toBe('shared01');

    // A second run reads and changes nothing.
    calls.length = 0;
    expect((await reconcileDataPlane(account.api('shared01').state, target, domains)).changes).toBe(0);
    expect(calls.filter((c) => !/^(Get|List)/.test(c))).toEqual([]);
  });

  it('reports a domain API Gateway refuses without holding back the others; the next run finishes it; revoked, everything goes', async () => {
    const dom = `${uid('crash')}.tenant.test`;
    const fine = `${uid('fine')}.tenant.test`;
    const { account, api } = emulatedAccount('*.tenant.test');
    const target = { gatewayId: uid('apigw'), host: '', authorizerId: 'sharedauth' };
    for (const d of [dom, fine]) expect((await grant(acme.orgId, d)).status).toBe(200);
    const apiId = uid('dom');
    expect((await create(acme.key, apiId, `/${uid('p')}/`, 'http://acme.internal', dom)).status).toBe(200);
    expect((await create(acme.key, uid('fine'), `/${uid('p')}/`, 'http://acme.internal', fine)).status).toBe(200);
    const refusing = {
      ...api,
      createApiMapping: (name: string, id: string) =>
        name === dom ? Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' })) : api.createApiMapping(name, id),
    };

    const shared = account.api('shared01').state;
    const run = await reconcileDataPlane(shared, target, { account: refusing, authorizerUri: AUTHORIZER_URI, namePrefix: 'dp' });
    expect(run.skipped).toContainEqual({ api_id: apiId, reason: expect.stringContaining(`${dom} not applied yet (Rate exceeded)`) });
    expect(account.domainName(dom).mappings.size).toBe(0);
    expect(account.domainName(fine).mappings.size).toBe(1);
    const again = await reconcileDataPlane(shared, target, { account: api, authorizerUri: AUTHORIZER_URI, namePrefix: 'dp' });
    expect(again.skipped.filter((x) => x.api_id === apiId)).toEqual([]);
    const own = [...account.apis.values()].filter((a) => a.Tags['gw:host'] === dom);
    expect(own).toHaveLength(1);
    expect(own[0]!.authorizers.size).toBe(1);
    expect([...account.domainName(dom).mappings.values()].map((m) => m.ApiId)).toEqual([own[0]!.ApiId]);

    expect((await s.admin('DELETE', `/admin/organisations/${acme.orgId}/domains/${dom}`)).status).toBe(200);
    await reconcileDataPlane(shared, target, { account: api, authorizerUri: AUTHORIZER_URI, namePrefix: 'dp' });
    // (The domain of the first case is still granted and served: this file's stage is shared.)
    expect([...account.apis.values()].filter((a) => a.Tags['gw:host'] === dom)).toEqual([]);
    expect(account.domainNames.has(dom)).toBe(false);
  });

  it("maps the operator's own custom domain name without a certificate in ACM, and leaves it in place when no API needs it", async () => {
    const dom = `${uid('own')}.operator.test`;
    const { account, api } = emulatedAccount(dom);
    // The operator made the domain name (its certificate, not ours to replace), without the reconciler's tag.
    account.createDomainName({ DomainName: dom, DomainNameConfigurations: [{ CertificateArn: account.certificates[0]!.arn }] });
    account.certificates.length = 0;
    const target = { gatewayId: uid('apigw'), host: '', authorizerId: 'sharedauth' };
    const domains = { account: api, authorizerUri: AUTHORIZER_URI, namePrefix: 'dp' };
    expect((await grant(acme.orgId, dom)).status).toBe(200);
    const apiId = uid('op');
    expect((await create(acme.key, apiId, `/${uid('p')}/`, 'http://acme.internal', dom)).status).toBe(200);
    await reconcileDataPlane(account.api('shared01').state, target, domains);
    expect(account.domainName(dom).mappings.size).toBe(1);

    expect((await s.dash(acme.key, 'DELETE', `/api/apis/${apiId}`)).status).toBe(200);
    await reconcileDataPlane(account.api('shared01').state, target, domains);
    expect([...account.apis.values()].filter((a) => a.Tags['gw:host'] === dom)).toEqual([]);
    expect(account.domainName(dom).mappings.size).toBe(0);
  });
});
