import { Validator } from '@seriousme/openapi-schema-validator';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { documentMethods, documentPath } from '../../shared/openapi/document';
import { routeList } from '../../shared/routes';
import { useStage } from '../support/file-stage';
import { ADMIN_SECRET, GW_SECRET } from '../support/table';

const s = useStage();

it('/openapi.json is a valid OpenAPI 3.1 document listing every route of the table', async () => {
  const r = await s.call('GET', '/openapi.json');
  expect(r.status).toBe(200);
  expect(r.body.openapi).toBe('3.1.0');
  const result = await new Validator().validate(r.body);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  for (const route of routeList) {
    const op = r.body.paths[documentPath(route.path)]?.[documentMethods(route.method)[0]!];
    expect(op, `${route.method} ${route.path}`).toBeDefined();
    expect(op.operationId).toBe(route.name);
    expect(op['x-planned']).toBeUndefined();
  }
  // Bodies are named models: the operation references the component, which holds the rules.
  const create = r.body.paths['/admin/users'].post;
  expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserCreate' });
  expect(r.body.components.schemas.UserCreate.required).toEqual(['org_id', 'email_address']);
});

it('passes the Redocly linter with its recommended rules: 0 errors', async () => {
  const r = await s.call('GET', '/openapi.json');
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), r.text);
    // Run from a folder without a redocly.yaml, so the built-in recommended rules apply.
    const cli = join(process.cwd(), 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', 'openapi.json', '--extends=recommended', '--format=json'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors.slice(0, 30)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);

describe('the document refuses what the server refuses for a reason JSON Schema can state', async () => {
  const { OpenAPIBackend } = await import('openapi-backend');
  const { Ajv2020 } = await import('ajv/dist/2020');
  const addFormats = (await import('ajv-formats')).default;
  const hash = 'a'.repeat(64);
  const policy = { id: 'refused-policy', name: 'p' };
  // [method, path, JSON body text, the group's credential header, the status when not 400]
  const cases: Array<[string, string, string | undefined, 'gw' | 'dash' | 'admin', number?]> = [
    ['POST', '/api/hooks', JSON.stringify({ method: 'GET', target_path: '/relative/path' }), 'dash'],
    ['POST', '/api/hooks', JSON.stringify({ method: 'GET', target_path: 'ftp://x.example/' }), 'dash'],
    ['POST', '/api/hooks', JSON.stringify({ method: 'GET', target_path: 'https://x.example/', header_map: { HOST: 'a' } }), 'dash'],
    ['POST', '/api/hooks', JSON.stringify({ method: 'GET', target_path: 'https://x.example/', header_map: { 'X-Forwarded-For': 'a' } }), 'dash'],
    [
      'POST',
      '/api/hooks',
      JSON.stringify({
        method: 'GET',
        target_path: 'https://x.example/',
        header_map: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`x-h${i}`, 'v'])),
      }),
      'dash',
    ],
    ['POST', '/gw/oauth/clients/create', JSON.stringify({ api_id: 'some-api', redirect_uri: 'not a uri' }), 'gw'],
    ['POST', '/gw/policies', JSON.stringify({ ...policy, smoothing: { trigger: 0.015 } }), 'gw'],
    ['POST', '/gw/policies', `{"id":"refused-policy","__proto__":{"rate":1}}`, 'gw'],
    ['POST', '/gw/policies', JSON.stringify({ ...policy, rate: 1e308 }), 'gw'],
    ['POST', '/gw/policies', JSON.stringify({ ...policy, per: 1e-131 }), 'gw'],
    // An exported policy (blank id, its _id kept) is held to every rule of a policy.
    ['POST', '/admin/policies/import', JSON.stringify({ Data: [{ _id: 'exported-policy', rate: 'fast' }] }), 'admin'],
    ['POST', '/admin/policies/import', JSON.stringify({ Data: [{ _id: 'exported-policy', id: '', smoothing: { trigger: 0.015 } }] }), 'admin'],
    ['POST', '/admin/policies/import', JSON.stringify({ Data: [{ _id: 'exported-policy', per: 1e-131 }] }), 'admin'],
    ['POST', '/admin/policies/import', JSON.stringify({ Data: [{ _id: 'exported-policy', tags: 'gold' }] }), 'admin'],
    ['POST', '/gw/keys/create', JSON.stringify({ org_id: 'some-org', rate: 1 }), 'gw'],
    ['POST', '/gw/keys/create', JSON.stringify({ org_id: 'some-org', access_rights: {}, apply_policies: [] }), 'gw'],
    ['POST', '/gw/keys/create', JSON.stringify({ org_id: 'some-org', apply_policies: ['p'], quota_max: 9007199254740994 }), 'gw'],
    ['POST', '/gw/apis/oas', JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }), 'gw'],
    // Found by a property-based tester driving every operation from the document.
    ['POST', '/gw/keys/create', JSON.stringify({ org_id: 'some-org', access_rights: null }), 'gw'],
    ['POST', '/gw/keys/create', JSON.stringify({ org_id: 'some-org', apply_policies: null }), 'gw'],
    ['POST', '/gw/keys/create', JSON.stringify({ org_id: 'some-org', apply_policies: ['p'], meta_data: { '': 1 } }), 'gw'],
    ['POST', '/gw/keys/create', JSON.stringify({ org_id: 'some-org', apply_policies: ['p'], meta_data: { deep: [1e-200] } }), 'gw'],
    ['POST', '/gw/policies', JSON.stringify({ ...policy, partitions: { per_api: true, quota: true } }), 'gw'],
    ['POST', '/gw/policies', JSON.stringify({ ...policy, meta_data: { n: 2 ** 60 } }), 'gw'],
    ['POST', '/admin/organisations', JSON.stringify({ open_policy: { '': true } }), 'admin'],
    ['POST', '/api/assets', JSON.stringify({ kind: 'other-template', data: {} }), 'dash', 422],
    ['POST', '/api/hooks', JSON.stringify({ method: 'GET', target_path: 'http://^:1' }), 'dash'],
    ['POST', '/gw/oauth/clients/create', JSON.stringify({ api_id: 'some-api', redirect_uri: 'http://^:1' }), 'gw'],
    ['POST', '/gw/apis', JSON.stringify({ api_id: 'oas', name: 'n' }), 'gw'],
    ['GET', `/gw/ext-authz/${'p'.repeat(1100)}`, undefined, 'gw'],
    ['GET', `/api/activity/keys/${hash}/1/13/2024/2/1/2024`, undefined, 'dash'],
    ['GET', `/api/activity/keys/${hash}/32/1/2024/2/1/2024`, undefined, 'dash'],
  ];

  it.each(cases.map((c) => [`${c[0]} ${c[1]} ${c[2] ?? ''}`.slice(0, 140), c] as const))('%s', async (_label, [method, path, body, who, status]) => {
    const { key } = await s.tenant();
    const headers: Record<string, string> =
      who === 'gw' ? { 'x-gw-authorization': GW_SECRET } : who === 'admin' ? { 'admin-auth': ADMIN_SECRET } : { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await s.call(method, path, { headers, body });
    expect(answer.status, answer.text).toBe(status ?? 400);
    const doc = (await s.call('GET', '/openapi.json')).body;
    const api = new OpenAPIBackend({
      definition: doc,
      quick: true,
      customizeAjv: (_d, opts) => {
        const ajv = new Ajv2020({ ...opts, strict: false });
        addFormats(ajv);
        return ajv as never;
      },
    });
    await api.init();
    const url = new URL(path, 'http://stage');
    const request = {
      method,
      path: url.pathname,
      query: {},
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.parse(body),
    };
    const operation = api.router.matchOperation(request);
    expect(operation).toBeDefined();
    expect(api.validator.validateRequest(request, operation!).valid, 'the document takes a request the server refuses').toBe(false);
  });
});

it('answers the document compressed when the request accepts it, br before gzip, with Vary: Accept-Encoding', async () => {
  const plain = await fetch(`${s.url}/openapi.json`, { headers: { 'accept-encoding': 'identity' } });
  expect([plain.headers.get('content-encoding'), plain.headers.get('vary')]).toEqual([null, 'Accept-Encoding']);
  const text = await plain.text();
  for (const [accept, encoding] of [
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['deflate', null],
  ] as const) {
    const r = await fetch(`${s.url}/openapi.json`, { headers: { 'accept-encoding': accept } });
    expect([r.status, r.headers.get('content-encoding'), r.headers.get('vary')], accept).toEqual([200, encoding, 'Accept-Encoding']);
    expect(await r.text()).toBe(text);
  }
});
