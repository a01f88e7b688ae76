/**
 * The Lambda authorizer on the data-plane API (docs/operating/data-plane.md), in process against
 * the stage's table: with no API of its own it decides for the API whose listen path the matched
 * route key names, which the reconciler wrote; nothing the client sends picks another API.
 */
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { authorize } from '../../shared/services/authorizer';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';
import { onEmulator } from '../support/stage';

// It calls the service in this process, which the emulated stage does not share.
const suite = onEmulator ? describe.skip : describe;
const s = useStage();
const [t] = useTenants(s, 1);

const event = (routeKey: string, key: string, path: string, headers: Record<string, string> = {}, context: Record<string, string> = {}) =>
  ({
    type: 'REQUEST',
    version: '2.0',
    routeKey,
    identitySource: [key],
    rawPath: path,
    headers: { authorization: key, ...headers },
    requestContext: { http: { method: 'GET', path }, ...context },
  }) as unknown as APIGatewayRequestAuthorizerEventV2;

suite('the authorizer of the data-plane API', () => {
  it('decides for the API whose listen path the route key names, whatever the request says', async () => {
    const books = uid('books');
    const admin = uid('admin');
    for (const id of [books, admin]) {
      const r = await s.gw('POST', '/gw/apis', {
        api_id: id,
        name: id,
        org_id: t.orgId,
        proxy: { listen_path: `/${id}/`, target_url: 'http://upstream.example' },
      });
      expect(r.status, r.text).toBe(200);
    }
    const { key, hash } = await makeKey(s, {
      org_id: t.orgId,
      access_rights: { [books]: { api_id: books, api_name: books, versions: ['Default'], allowed_urls: [{ url: '^/shelf', methods: ['GET'] }] } },
      quota_max: 5,
      quota_renewal_rate: 3600,
    });

    const allowed = await authorize(event(`ANY /${books}/{proxy+}`, key, `/${books}/shelf/1`));
    expect(allowed).toEqual({
      isAuthorized: true,
      context: { api_id: books, key_hash: hash, org_id: t.orgId, quota_remaining: 4, quota_renews: expect.any(Number) },
    });
    expect((await authorize(event(`ANY /${books}`, key, `/${books}`))).isAuthorized).toBe(false); // allowed_urls: /shelf only, within the API
    // The route of another API: its key does not grant it, whatever headers claim.
    expect((await authorize(event(`ANY /${admin}/{proxy+}`, key, `/${admin}/x`, { 'x-gw-api-id': books }))).isAuthorized).toBe(false);
    // A route key no listen path holds, and one not of the reconciler's shape.
    expect((await authorize(event(`ANY /${uid('none')}/{proxy+}`, key, '/none/shelf'))).isAuthorized).toBe(false);
    expect((await authorize(event('$default', key, `/${books}/shelf`))).isAuthorized).toBe(false);
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(4);
  });

  afterEach(() => {
    delete process.env.DATA_PLANE_API_ID;
    resetConfig();
  });

  it("on a per-domain API decides on that domain's claims (API Gateway's API id and domain name), not the shared hosts'", async () => {
    const evil = await s.tenant();
    const dom = `${uid('shop')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${t.orgId}/domains/${dom}`)).status).toBe(200);
    const path = `/${uid('same')}/`;
    const mine = uid('mine');
    const theirs = uid('theirs');
    const mk = (id: string, org: string, domain?: string) =>
      s.gw('POST', '/gw/apis', {
        api_id: id,
        name: id,
        org_id: org,
        ...(domain ? { domain } : {}),
        proxy: { listen_path: path, target_url: 'http://u.example' },
      });
    expect((await mk(mine, t.orgId, dom)).status).toBe(200);
    expect((await mk(theirs, evil.orgId)).status).toBe(200);
    const { key: myKey } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(mine) });
    const { key: theirKey } = await makeKey(s, { org_id: evil.orgId, access_rights: rightsFor(theirs) });
    process.env.DATA_PLANE_API_ID = 'shared01';
    resetConfig();
    const route = `ANY ${path.slice(0, -1)}/{proxy+}`;
    const onDomain = { apiId: 'domapi01', domainName: dom };
    const onShared = { apiId: 'shared01', domainName: 'shared01.execute-api.eu-west-1.amazonaws.com' };
    expect(await authorize(event(route, myKey, `${path}x`, {}, onDomain))).toMatchObject({ isAuthorized: true, context: { api_id: mine } });
    expect((await authorize(event(route, theirKey, `${path}x`, {}, onDomain))).isAuthorized).toBe(false);
    expect(await authorize(event(route, theirKey, `${path}x`, {}, onShared))).toMatchObject({ isAuthorized: true, context: { api_id: theirs } });
    expect((await authorize(event(route, myKey, `${path}x`, {}, onShared))).isAuthorized).toBe(false);
    // A Host header says nothing: the shared API stays on the shared hosts.
    expect((await authorize(event(route, myKey, `${path}y`, { host: dom }, onShared))).isAuthorized).toBe(false);
  });
});
