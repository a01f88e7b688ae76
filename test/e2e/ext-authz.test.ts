/**
 * The external-authorization route (docs/using/serving-apis.md) through the local stage, as
 * nginx auth_request (X-Original-*) and Envoy ext_authz (path after /gw/ext-authz, own method)
 * call it; and the rate headers it shares with POST /gw/sessions/check. Real nginx in front of it:
 * test/gateways/nginx.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { GW_SECRET } from '../support/table';

const s = useStage();
let orgId: string;
beforeAll(async () => {
  orgId = (await s.tenant()).orgId;
});

async function api(listenPath: string, domain?: string): Promise<string> {
  const apiId = uid('xa');
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

/** nginx's way: the original request in X-Original-* headers; `ask` is how nginx sends the subrequest (proxy_method). */
const viaNginx = (uri: string, headers: Record<string, string>, method = 'GET', host = 'gw.example', ask = 'GET') =>
  s.call(ask, `/gw/ext-authz${uri}`, {
    headers: { 'x-gw-authorization': GW_SECRET, 'x-original-uri': uri, 'x-original-method': method, 'x-original-host': host, ...headers },
  });
/** Envoy's way: the original method and path (after the prefix) and Host. */
const viaEnvoy = (method: string, uri: string, headers: Record<string, string>, host = 'gw.example') =>
  s.call(method, `/gw/ext-authz${uri}`, { headers: { 'x-gw-authorization': GW_SECRET, host, ...headers } });

describe('ANY /gw/ext-authz/{proxy+}', () => {
  it('answers with a Content-Length, as API Gateway does, and HEAD with the same status and headers but no body', async () => {
    // nginx keeps its connection to the auth server only when it knows where an answer ends
    // without reading a body (examples/nginx/api-gateway.conf asks with HEAD for that reason).
    const apiId = await api(`/${uid('h')}/`);
    const path = (await s.gw('GET', `/gw/apis/${apiId}`)).body.proxy.listen_path as string;
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(apiId), quota_max: 1, quota_renewal_rate: 3600 });
    const framing = (r: Awaited<ReturnType<typeof viaNginx>>) => [r.status, r.headers.get('content-length'), r.headers.get('transfer-encoding'), r.text];
    const allowed = await viaNginx(`${path}a`, { authorization: key }, 'GET', 'gw.example', 'HEAD');
    expect(framing(allowed)).toEqual([200, '0', null, '']);
    expect(allowed.headers.get('x-gw-quota-remaining')).toBe('0');
    const headRefused = await viaNginx(`${path}a`, { authorization: key }, 'GET', 'gw.example', 'HEAD');
    const getRefused = await viaNginx(`${path}a`, { authorization: key });
    expect(framing(headRefused)).toEqual([429, getRefused.headers.get('content-length'), null, '']);
    expect(Number(headRefused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect([getRefused.status, getRefused.headers.get('transfer-encoding')]).toEqual([429, null]);
    expect(getRefused.body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
    expect(getRefused.headers.get('content-length')).toBe(String(Buffer.byteLength(getRefused.text)));
  });

  it('allows with an empty 200 and the headers a gateway passes upstream, spending one unit', async () => {
    const apiId = await api(`/${uid('p')}/`);
    const path = (await s.gw('GET', `/gw/apis/${apiId}`)).body.proxy.listen_path as string;
    const { key, hash } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(apiId), quota_max: 5, quota_renewal_rate: 3600 });
    const r = await viaNginx(`${path}pets/1?x=1`, { authorization: `Bearer ${key}` });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('');
    expect(r.headers.get('x-gw-api-id')).toBe(apiId);
    expect(r.headers.get('x-gw-key-hash')).toBe(hash);
    expect(r.headers.get('x-gw-org-id')).toBe(orgId);
    expect(r.headers.get('x-gw-quota-remaining')).toBe('4');
    expect(r.headers.get('x-ratelimit-limit')).toBe('5');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 + 3500);
    // The same unit counter as the check: the key's session shows the spend.
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(4);
  });

  it('finds the API by the longest listen path, a claim on the host before one on every host', async () => {
    const base = `/${uid('lp')}`;
    const short = await api(`${base}/`);
    const long = await api(`${base}/v2/`);
    const shop = `${uid('shop')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${orgId}/domains/${shop}`)).status).toBe(200);
    const onHost = await api(`${base}/`, shop);
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(short, long, onHost) });
    const idFor = async (uri: string, host = 'gw.example') => (await viaEnvoy('POST', uri, { authorization: key }, host)).headers.get('x-gw-api-id');
    expect(await idFor(`${base}/v2/orders`)).toBe(long);
    expect(await idFor(`${base}/v2`)).toBe(long);
    expect(await idFor(`${base}/v20/orders`)).toBe(short);
    expect(await idFor(`${base}/x`)).toBe(short);
    expect(await idFor(`${base}/x`, `${shop.toUpperCase()}:8443`)).toBe(onHost);
    const none = await viaEnvoy('GET', `/${uid('nowhere')}/x`, { authorization: key });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ allowed: false, reason: 'UnknownApi' });
    // Named by the gateway: no lookup.
    const named = await viaEnvoy('GET', `/${uid('nowhere')}/x`, { authorization: key, 'x-gw-api-id': long });
    expect(named.status).toBe(200);
    expect(named.headers.get('x-gw-api-id')).toBe(long);
  });

  it('reads the key bare, after Bearer, from another header or from a query parameter; 401 without or unknown', async () => {
    const apiId = await api(`/${uid('k')}/`);
    const path = (await s.gw('GET', `/gw/apis/${apiId}`)).body.proxy.listen_path as string;
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(apiId) });
    expect((await viaNginx(`${path}a`, { authorization: key })).status).toBe(200);
    expect((await viaNginx(`${path}a`, { authorization: `bearer ${key}` })).status).toBe(200);
    expect((await viaNginx(`${path}a`, { 'x-api-key': key, 'x-gw-key-header': 'X-Api-Key' })).status).toBe(200);
    expect((await viaNginx(`${path}a?api_key=${key}`, { 'x-gw-key-param': 'api_key' })).status).toBe(200);
    expect((await viaEnvoy('DELETE', `${path}a?api_key=${key}`, { 'x-gw-key-param': 'api_key' })).status).toBe(200);
    const missing = await viaNginx(`${path}a`, {});
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ allowed: false, reason: 'NoKey' });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const unknown = await viaNginx(`${path}a`, { authorization: 'Bearer nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ allowed: false, reason: 'UnknownKey' });
  });

  it("403 where the key's allowed_urls refuse the path or the method, tried as sent and after the listen path", async () => {
    const apiId = await api(`/${uid('u')}/`);
    const path = (await s.gw('GET', `/gw/apis/${apiId}`)).body.proxy.listen_path as string;
    const rights = { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], allowed_urls: [{ url: '^/pets', methods: ['GET'] }] } };
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rights });
    expect((await viaNginx(`${path}pets/1`, { authorization: key })).status).toBe(200);
    const other = await viaNginx(`${path}orders/1`, { authorization: key });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ allowed: false, reason: 'AccessDenied' });
    expect((await viaEnvoy('POST', `${path}pets/1`, { authorization: key })).status).toBe(403);
    // The check applies the same rules to the path it is sent.
    const check = (p: string, method: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: p, method });
    expect((await check('/pets/2', 'GET')).status).toBe(200);
    expect((await check('/orders', 'GET')).body).toMatchObject({ reason: 'AccessDenied' });
    expect((await check('/pets/2', 'PUT')).body).toMatchObject({ reason: 'AccessDenied' });
  });

  it('429 with Retry-After and the spent quota in the rate headers, for the route and the check alike', async () => {
    const apiId = await api(`/${uid('q')}/`);
    const path = (await s.gw('GET', `/gw/apis/${apiId}`)).body.proxy.listen_path as string;
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(apiId), quota_max: 2, quota_renewal_rate: 600 });
    expect((await viaNginx(`${path}a`, { authorization: key })).status).toBe(200);
    const checked = await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: '/a', method: 'GET' });
    expect(checked.status).toBe(200);
    expect([checked.headers.get('x-ratelimit-limit'), checked.headers.get('x-ratelimit-remaining')]).toEqual(['2', '0']);
    for (const r of [await viaNginx(`${path}a`, { authorization: key }), await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId })]) {
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ allowed: false, reason: 'QuotaExceeded' });
      const retry = Number(r.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(500);
      expect(retry).toBeLessThanOrEqual(600);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(r.headers.get('x-ratelimit-limit')).toBe('2');
    }
  });

  it('a rate limit refusal says how long until its window ends', async () => {
    const apiId = await api(`/${uid('r')}/`);
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(apiId), rate: 1, per: 60 });
    const answers = await Promise.all([1, 2, 3].map(() => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId })));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(r.body.reason).toBe('RateLimitExceeded');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
  });
});
