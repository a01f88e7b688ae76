/**
 * The table of credential-bearing members (shared/domain/credential-members.ts): what it finds in
 * each kind, URLs read textually (references stay whole), a masked URL credential sent back keeps
 * the stored one, and gwctl, reading the table from the published document, finds exactly what
 * the service finds (one definition, two readers).
 */
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_MASK as M,
  credentialSpots,
  keepMaskedUrlCredentials,
  maskCredentials,
  urlCredentialRanges,
  type CredentialKind,
} from '../../shared/domain/credential-members';
import { openApiDocument } from '../../shared/openapi/document';
import { credentialSpots as gwctlSpots } from '../../tools/gwctl/credentials';
import type { ConfigObject } from '../../tools/gwctl/model';

const oas = {
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  paths: {},
  'x-gw-api-gateway': {
    upstream: { url: 'https://svc:pw@up.example/base?api_key=k&page=1', authentication: { basicAuth: { username: 'svc', password: 'basic-pw' } } },
    middleware: {
      global: {
        transformRequestHeaders: {
          add: [
            { name: 'Authorization', value: 'Bearer g' },
            { name: 'X-Team', value: 'ops' },
          ],
        },
        transformResponseHeaders: { add: [{ name: 'Set-Cookie', value: 'sid=1' }] },
      },
      operations: { listOrders: { transformRequestHeaders: { add: [{ name: 'X-Api-Key', value: 'op' }] } } },
    },
    server: { eventHandlers: [{ type: 'webhook', url: 'https://u:p@hooks.example/x', headers: [{ name: 'x-team', value: 'ops' }] }] },
  },
};
const classic = {
  api_id: 'c',
  proxy: { target_url: 'https://u:p@up.example', target_list: ['https://a.example?token=t'] },
  version_data: { versions: { Default: { global_headers: { Authorization: 'Bearer c', 'X-Team': 'ops' } } } },
  auth: { signature: { secret: 'sig-secret', header: 'X-Signature' } },
  event_handlers: {
    events: { QuotaExceeded: [{ handler_name: 'eh_web_hook_handler', handler_meta: { target_path: 'https://h.example', header_map: { a: 'b' } } }] },
  },
};
const hook = { name: 'h', method: 'POST', target_path: 'https://u:p@x.example/h?token=abc&team=ops', header_map: { Authorization: 'Bearer h', 'x-team': '' } };

describe('the table', () => {
  it('an OAS document: upstream userinfo and credential query values, basic auth, header values of the transforms (global, per operation), handlers', () => {
    const shown = maskCredentials('api-oas', oas)['x-gw-api-gateway'];
    expect(shown.upstream).toEqual({
      url: `https://${M}:${M}@up.example/base?api_key=${M}&page=1`,
      authentication: { basicAuth: { username: 'svc', password: M } },
    });
    expect(shown.middleware.global.transformRequestHeaders.add).toEqual([
      { name: 'Authorization', value: M },
      { name: 'X-Team', value: 'ops' },
    ]);
    expect(shown.middleware.global.transformResponseHeaders.add).toEqual([{ name: 'Set-Cookie', value: M }]);
    expect(shown.middleware.operations.listOrders.transformRequestHeaders.add).toEqual([{ name: 'X-Api-Key', value: M }]);
    expect(shown.server.eventHandlers[0]).toEqual({ type: 'webhook', url: `https://${M}:${M}@hooks.example/x`, headers: [{ name: 'x-team', value: M }] });
  });

  it('a classic definition, a stored API (both forms), a webhook (every header value), users, OAuth clients', () => {
    expect(maskCredentials('api-classic', classic)).toEqual({
      api_id: 'c',
      proxy: { target_url: `https://${M}:${M}@up.example`, target_list: [`https://a.example?token=${M}`] },
      version_data: { versions: { Default: { global_headers: { Authorization: M, 'X-Team': 'ops' } } } },
      auth: { signature: { secret: M, header: 'X-Signature' } },
      event_handlers: {
        events: { QuotaExceeded: [{ handler_name: 'eh_web_hook_handler', handler_meta: { target_path: 'https://h.example', header_map: { a: M } } }] },
      },
    });
    const stored = maskCredentials('api', { definition: { oas, classic } });
    expect(JSON.stringify(stored)).not.toMatch(/Bearer|basic-pw|sig-secret|svc:pw|=k&|u:p/);
    expect(maskCredentials('webhook', hook)).toEqual({
      ...hook,
      target_path: `https://${M}:${M}@x.example/h?token=${M}&team=ops`,
      header_map: { Authorization: M, 'x-team': M },
    });
    expect(maskCredentials('user', { email_address: 'a@x.example', password_hash: 'h', access_key_hash: 'k' })).toEqual({
      email_address: 'a@x.example',
      password_hash: M,
      access_key_hash: M,
    });
    expect(maskCredentials('oauth_client', { client_id: 'c', secret_hash: 's', redirect_uri: 'https://app.example/cb?code=1' })).toEqual({
      client_id: 'c',
      secret_hash: M,
      redirect_uri: `https://app.example/cb?code=1`,
    });
  });

  it('URLs are read as text: references stay whole, the rest byte for byte, no URL no credential', () => {
    const text = 'https://${env:U}:${env:P}@x.example:8443/p?a=1&access_token=${env:T}#frag';
    expect(urlCredentialRanges(text).map((r) => [r.label, text.slice(...r.range)])).toEqual([
      ['user', '${env:U}'],
      ['password', '${env:P}'],
      ['access_token', '${env:T}'],
    ]);
    expect(urlCredentialRanges('https://user@x.example').map((r) => r.label)).toEqual(['user']);
    expect(urlCredentialRanges('mailto:a@b.example?token=x')).toEqual([]);
    expect(urlCredentialRanges('/relative?token=x')).toEqual([]);
    expect(urlCredentialRanges('https://x.example/a@b?q=1#token=x')).toEqual([]);
  });

  it('the mask is one string whatever the value: two different credentials read the same', () => {
    expect(maskCredentials('webhook', { header_map: { a: 'one' } })).toEqual(maskCredentials('webhook', { header_map: { a: 'another, much longer value' } }));
  });
});

describe('a webhook target sent back masked', () => {
  it('keeps the stored credential in each masked place (user, password, the n-th parameter of a name); a mask with none stored is named', () => {
    const stored = 'https://u:p@x.example/h?token=a&token=b&team=ops';
    expect(keepMaskedUrlCredentials(`https://${M}:${M}@x.example/h?token=${M}&token=new&team=dev`, stored)).toEqual({
      url: 'https://u:p@x.example/h?token=a&token=new&team=dev',
      unknown: [],
    });
    expect(keepMaskedUrlCredentials(`https://${M}:${M}@y.example/?token=${M}&token=${M}`, stored).url).toBe('https://u:p@y.example/?token=a&token=b');
    expect(keepMaskedUrlCredentials(`https://x.example/h?secret=${M}`, stored)).toEqual({ url: `https://x.example/h?secret=${M}`, unknown: ['secret'] });
    expect(keepMaskedUrlCredentials('https://x.example/h?token=clear', stored).url).toBe('https://x.example/h?token=clear');
  });
});

describe('gwctl reads the same table from the document', () => {
  it('the document publishes the table as x-credential-members', () => {
    const doc = openApiDocument() as { 'x-credential-members': { kinds: Record<string, unknown>; mask: string } };
    expect(doc['x-credential-members'].mask).toBe(M);
    expect(Object.keys(doc['x-credential-members'].kinds)).toEqual(
      expect.arrayContaining(['*', 'api-oas', 'api-classic', 'webhook', 'template', 'oauth_client']),
    );
  });

  it('finds exactly the spots the service finds, kind by kind', () => {
    const cases: Array<[CredentialKind, ConfigObject]> = [
      ['api-oas', { kind: 'api', spec: oas }],
      ['api-classic', { kind: 'api', spec: classic }],
      ['webhook', { kind: 'hook', spec: hook }],
      ['template', { kind: 'template', spec: { name: 't', kind: 'oas-template', data: oas } }],
      [
        'oauth_client',
        { kind: 'oauth-client', spec: { api_id: 'a', client_id: 'c', redirect_uri: 'https://u:p@app.example/cb', meta_data: { api_key: 'k' } } },
      ],
      ['policy', { kind: 'policy', spec: { id: 'p', meta_data: { password: 'p', headers: { Cookie: 'c' } } } }],
    ];
    for (const [kind, o] of cases) {
      const service = credentialSpots(kind, o.spec).map(({ path, range, label }) => ({ path, range, label }));
      const tool = gwctlSpots(o).map(({ path, range, label }) => ({ path, range, label }));
      expect(tool, kind).toEqual(service);
      expect(service.length, kind).toBeGreaterThan(0);
    }
  });
});
