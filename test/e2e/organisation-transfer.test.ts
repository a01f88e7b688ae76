/**
 * Contract §9, export and import of an organisation between two installations: stage A (`npm
 * start`'s entry point over a table of its own, with another service key) holds an organisation
 * with every kind of object; stage B (in this process) imports its file. Issued keys keep working on B
 * with their quotas restarted, the file B exports is the same bytes, conflicts are refused before
 * anything is written, and an import that fails midway is undone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../tools/gwctl/main';
import { assetData, fullOrgFile, hookBody, makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { byEntity, names, scanAll, type Item } from '../support/org-items';
import { onEmulator, spawnStage, stageAt, startStage, type SpawnedStage, type Stage } from '../support/stage';
import { ADMIN_SECRET, GW_SECRET } from '../support/table';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint';
import { restoreOf } from '../../shared/services/organisation-transfer';
import type { Restore } from '../../shared/store/organisation-transfer';
import { claimImportRun, importRunMove, movedRun, moveImportRun, storeImportWrites } from '../../shared/store/import-runs';
import { restoreObjects, startRestore, writeObjects } from '../../shared/store/organisation-transfer';

type Any = Record<string, any>;
let a: Stage;
let b: Stage;
let spawned: SpawnedStage | undefined;
let org: { orgId: string; key: string; userId: string };
const dataDir = mkdtempSync(join(tmpdir(), 'transfer-'));
const tableA = `t-transfer-a-${uid('t')}`;
const world: Any = {};

/** Everything an organisation can hold that a file carries. */
async function buildWorld(s: Stage, orgId: string, key: string) {
  const domain = `${uid('shop').toLowerCase()}.example`;
  expect((await s.admin('PUT', `/admin/organisations/${orgId}/domains/${domain}`)).status).toBe(200);
  const [api1, api2] = [await makeApi(s, orgId, 'one'), await makeApi(s, orgId, 'two')];
  const onDomain = uid('dom');
  const dom = await s.gw('POST', '/gw/apis', {
    api_id: onDomain,
    name: 'd',
    org_id: orgId,
    domain,
    proxy: { listen_path: '/d/', target_url: 'http://u.example' },
  });
  expect(dom.status, dom.text).toBe(200);
  const policy = uid('pol');
  expect(
    (await s.gw('POST', '/gw/policies', { id: policy, org_id: orgId, access_rights: rightsFor(api1), quota_max: 50, quota_renewal_rate: 3600 })).status,
  ).toBe(200);
  const keys = [
    await makeKey(s, { org_id: orgId, access_rights: rightsFor(api1, api2) }),
    await makeKey(s, { org_id: orgId, access_rights: rightsFor(api1), quota_max: 3, quota_renewal_rate: 3600 }),
    await makeKey(s, { org_id: orgId, access_rights: rightsFor(api2), basic_auth_data: { password: 'pw-123456', user: 'alice' } }),
    await makeKey(s, { org_id: orgId, apply_policies: [policy] }),
  ];
  expect((await s.gw('PUT', `/gw/org/keys/${orgId}`, { quota_max: 1000, quota_renewal_rate: 3600 })).status).toBe(200);
  // The quota of 3 is spent on A: the import restarts it on B.
  for (let i = 0; i < 3; i++) expect((await s.gw('POST', '/gw/sessions/check', { key: keys[1]!.key, api_id: api1 })).status).toBe(200);
  const client = await s.gw('POST', '/gw/oauth/clients/create', { api_id: api1, redirect_uri: 'https://a.example/cb', description: 'c' });
  expect(client.status, client.text).toBe(200);
  const hook = await s.dash(key, 'POST', '/api/hooks', hookBody('h'));
  expect(hook.status, hook.text).toBe(200);
  const template = uid('tpl');
  expect((await s.dash(key, 'POST', '/api/assets', { id: template, name: 't', kind: 'oas-template', data: assetData('t') })).status).toBe(200);
  const second = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: `second@${orgId}.example`, password: 'a-long-password-1' });
  expect(second.status, second.text).toBe(200);
  // The developer portal: on the organisation's domain, a manual plan, a developer and their pending request.
  const portalOn = { enabled: true, sign_up: 'open', domain, hook_ids: [hook.body.Meta] };
  expect((await s.dash(key, 'PUT', '/api/portal/settings', portalOn)).status).toBe(200);
  const plan = { id: 'pro', name: 'Pro', policy_id: policy, approval: 'manual' };
  expect((await s.dash(key, 'PUT', `/api/portal/catalogue/${api1}`, { plans: [plan] })).status).toBe(200);
  const developer = { email_address: `dev@${orgId}.example`.toLowerCase(), password: 'a developer password' };
  expect((await s.call('POST', `/portal/${orgId}/developers`, { body: developer })).status).toBe(200);
  const session = await s.call('POST', `/portal/${orgId}/sessions`, { body: developer });
  const requested = await s.call('POST', `/portal/${orgId}/key-requests`, {
    headers: { authorization: `Bearer ${session.body.Meta.token}` },
    body: { api_id: api1, plan_id: 'pro' },
  });
  expect(requested.status, requested.text).toBe(200);
  Object.assign(world, {
    developer,
    domain,
    api1,
    api2,
    onDomain,
    policy,
    keys,
    clientId: client.body.client_id,
    hookId: hook.body.Meta,
    secret: hook.body.signing_secret,
    template,
  });
}

// The undo's offboarding starts deleting 2 × CACHE_SECONDS + 1 s after the import stopped.
process.env.CACHE_SECONDS = '1';

beforeAll(async () => {
  // A, the installation the organisation leaves: its own table and service key. B (this process,
  // so the route tests record what the import sends) is where it arrives, with its change feed.
  spawned = await spawnStage({
    dataDir,
    env: { DYNAMODB_ENDPOINT: workerDynamoEndpoint(), TABLE_NAME: tableA, GW_SECRET, ADMIN_SECRET, SERVER_SECRET: `other-${uid('k')}`, LOG_LEVEL: 'warn' },
  });
  a = stageAt(spawned.url, tableA, async () => {});
  org = await a.tenant();
  await buildWorld(a, org.orgId, org.key);
  b = await startStage({ changeFeed: true });
}, 180_000);

afterAll(async () => {
  await spawned?.stop();
  await b?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The kinds of item an import writes. */
const IMPORTED = new Set(
  'org org_count org_session counter domain_grant routing_version api api_part api_db_id listen_path routed_claim shared_path'
    .split(' ')
    .concat('shared_path_head host_claims policy oauth_client key key_username live_quota hook asset asset_custom_id user user_email offboarding'.split(' '))
    .concat(['import_run', 'import_part'])
    .concat('portal_settings catalogue_entry developer developer_email key_request'.split(' ')),
);

/** Every item of the kinds an import writes, as text: what a refused import must leave exactly as it was. */
const written = async (table: string) =>
  (await scanAll(table))
    .filter((i) => IMPORTED.has(String(i.entity)))
    .map((i) => JSON.stringify(i, Object.keys(i).sort()))
    .sort();

/** The items of a table that name the organisation. */
const heldBy = async (table: string, orgId: string): Promise<Item[]> => (await scanAll(table)).filter((i) => names(i, [orgId]));

describe.skipIf(onEmulator)('export and import of an organisation', () => {
  let file: string;

  it('exports one canonical file: every kind, ids kept, no access key, no version, no secret unless asked', async () => {
    const r = await a.admin('GET', `/admin/organisations/${org.orgId}/export`);
    expect(r.status, r.text).toBe(200);
    file = r.text;
    const f = r.body as Any;
    expect([f.format, f.version]).toEqual(['gw-organisation', 1]);
    expect(f.organisation.id).toBe(org.orgId);
    expect(f.domains.map((d: Any) => d.domain)).toEqual([world.domain]);
    expect(f.apis.map((x: Any) => x.api_id).sort()).toEqual([world.api1, world.api2, world.onDomain].sort());
    expect(f.keys.map((k: Any) => k.session.key_hash).sort()).toEqual(world.keys.map((k: Any) => k.hash).sort());
    expect(f.keys.find((k: Any) => k.username === 'alice').basic_auth_hash).toMatch(/./);
    expect(f.policies.map((p: Any) => p.id)).toEqual([world.policy]);
    expect(f.oauth_clients.map((c: Any) => c.client_id)).toEqual([world.clientId]);
    expect(f.oauth_clients[0].secret_hash).toMatch(/./);
    expect(f.webhooks.map((h: Any) => h.id)).toEqual([world.hookId]);
    expect(f.templates.map((t: Any) => t.id)).toEqual([world.template]);
    expect(f.users).toHaveLength(2);
    expect(f.organisation_session.session.quota_max).toBe(1000);
    expect(f.portal_settings).toMatchObject({ enabled: true, domain: world.domain, hook_ids: [world.hookId] });
    expect(f.catalogue.map((e: Any) => [e.api_id, e.plans[0].policy_id])).toEqual([[world.api1, world.policy]]);
    expect(f.developers.map((d: Any) => d.email_lower)).toEqual([world.developer.email_address]);
    expect(f.developers[0].password_hash).toMatch(/./);
    expect(f.key_requests.map((q: Any) => [q.api_id, q.plan_id, q.state])).toEqual([[world.api1, 'pro', 'pending']]);
    // What belongs to the installation stays behind.
    expect(file).not.toMatch(/access_key_hash|signing_secret|offboarding_since/);
    for (const kind of ['apis', 'policies', 'oauth_clients', 'webhooks', 'templates', 'users'])
      for (const o of f[kind]) expect(o).not.toHaveProperty('version');
    expect(f.organisation).not.toHaveProperty('version');
    expect(f.users.find((u: Any) => u.email_address.startsWith('second@')).password_hash).toMatch(/./);
    // Canonical: sorted members, so the text is one per content.
    expect(Object.keys(f)).toEqual([...Object.keys(f)].sort());
    const withSecrets = await a.admin('GET', `/admin/organisations/${org.orgId}/export?secrets=true`);
    expect(withSecrets.body.webhooks[0].signing_secret).toBe(world.secret);
    expect((await a.admin('GET', '/admin/organisations/no-such-org/export')).status).toBe(404);
    // The import's path sits where an organisation called import would be read: the id is refused.
    expect((await a.admin('POST', '/admin/organisations', { id: 'import' })).status).toBe(400);
  });

  it('refuses a file that contradicts itself or is not a file: 400, nothing stored', async () => {
    const f = JSON.parse(file) as Any;
    const before = await written(b.table);
    const foreign = { ...f, policies: [{ ...f.policies[0], org_id: 'someone-else' }] };
    const r = await b.admin('POST', '/admin/organisations/import', foreign);
    expect(r.status, r.text).toBe(400);
    expect(r.text).toContain('policies[0].org_id');
    const twice = { ...f, apis: [...f.apis, f.apis[0]] };
    expect((await b.admin('POST', '/admin/organisations/import', twice)).status).toBe(400);
    expect((await b.admin('POST', '/admin/organisations/import', { ...f, version: 2 })).status).toBe(400);
    expect((await b.admin('POST', '/admin/organisations/import', { ...f, apis: 'x' })).status).toBe(400);
    expect(await written(b.table)).toEqual(before);
  });

  it('imports into another installation: keys keep working with fresh quotas, and B exports the same bytes', async () => {
    const secretFile = (await a.admin('GET', `/admin/organisations/${org.orgId}/export?secrets=true`)).text;
    const r = await b.admin('POST', '/admin/organisations/import', JSON.parse(secretFile));
    expect(r.status, r.text).toBe(200);
    expect(r.body.Message).toBe('Organisation imported');
    expect(r.body.Meta).toEqual({
      org_id: org.orgId,
      state: 'done',
      imported: {
        domains: 1,
        apis: 3,
        policies: 1,
        oauth_clients: 1,
        keys: 4,
        webhooks: 1,
        templates: 1,
        users: 2,
        portal_settings: 1,
        catalogue: 1,
        developers: 1,
        key_requests: 1,
      },
      webhook_secrets: 'carried',
    });
    // Byte-identical both ways: with and without the secrets (re-sealed under B's own service key).
    expect((await b.admin('GET', `/admin/organisations/${org.orgId}/export`)).text).toBe(file);
    expect((await b.admin('GET', `/admin/organisations/${org.orgId}/export?secrets=true`)).text).toBe(secretFile);
    // Issued keys work on B; the spent quota of 3 starts again.
    for (let i = 0; i < 3; i++) {
      const c = await b.gw('POST', '/gw/sessions/check', { key: world.keys[1].key, api_id: world.api1 });
      expect(c.status, c.text).toBe(200);
    }
    expect((await b.gw('POST', '/gw/sessions/check', { key: world.keys[1].key, api_id: world.api1 })).status).toBe(429);
    expect((await b.gw('POST', '/gw/sessions/check', { key: world.keys[0].key, api_id: world.api2 })).status).toBe(200);
    // Users come without access keys: the admin issues one, and it reaches the organisation's objects.
    const fresh = await b.admin('POST', `/admin/users/${org.userId}/access-key`);
    expect(fresh.status, fresh.text).toBe(200);
    const apis = await b.dash(fresh.body.Meta.access_key, 'GET', '/api/apis');
    expect(apis.status, apis.text).toBe(200);
    expect(apis.body.pages).toBe(1);
    const keys = await b.dash(fresh.body.Meta.access_key, 'GET', '/api/keys');
    // The list applies the key's policy: its quota is the policy's.
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body.keys).toHaveLength(4);
    expect(keys.body.keys.find((k: Any) => k.key_hash === world.keys[3].hash)?.quota_max).toBe(50);
    // The counts the lists page by are exact.
    const held = await heldBy(b.table, org.orgId);
    const counts = Object.fromEntries(held.filter((i) => i.entity === 'counter').map((i) => [String(i.SK), i.n]));
    expect(counts).toMatchObject({ 'COUNT#API': 3, 'COUNT#KEY': 4, 'COUNT#POLICY': 1, 'COUNT#HOOK': 1, 'COUNT#ASSET': 1, 'COUNT#USER': 2 });
    // The same kinds of items as A holds, but what the file leaves: usage, access keys, idempotency records; and B's record of the import.
    expect(held.filter((i) => String(i.entity).startsWith('import_')).map((i) => [i.entity, i.state])).toEqual([['import_run', 'done']]);
    // Developers' sessions are the installation's, like access keys.
    const onA = byEntity(
      (await heldBy(a.table, org.orgId)).filter(
        (i) => !/usage|audit|idempotency|access_key|event|deletion|tally|limit|developer_session/.test(String(i.entity)),
      ),
    );
    const onB = byEntity(held.filter((i) => !/usage|audit|idempotency|access_key|event|deletion|tally|limit|import_run/.test(String(i.entity))));
    expect(onB).toEqual(onA);
    // The developer signs in on B with the same password and finds their request; the portal is on its domain there.
    const signedIn = await b.call('POST', `/portal/${org.orgId}/sessions`, { body: world.developer });
    expect(signedIn.status, signedIn.text).toBe(200);
    const mine = await b.call('GET', `/portal/${org.orgId}/key-requests`, { headers: { authorization: `Bearer ${signedIn.body.Meta.token}` } });
    expect(mine.body.requests.map((q: Any) => q.state)).toEqual(['pending']);
    const host = (await b.gw('GET', '/gw/routing')).body.hosts.find((h: Any) => h.host === world.domain);
    expect(host.portal.orgId).toBe(org.orgId);
  });

  it('refuses a file whose ids are stored: 409 naming them, and nothing written', async () => {
    const before = await written(b.table);
    const again = await b.admin('POST', '/admin/organisations/import', JSON.parse(file));
    expect(again.status, again.text).toBe(409);
    expect(again.text).toContain(`organisation ${org.orgId} is stored already`);
    // A new organisation id, but a policy and a key of the one imported: still nothing written.
    const f = JSON.parse(file) as Any;
    const other = uid('org');
    const emptied = { domains: [], apis: [], oauth_clients: [], webhooks: [], templates: [], users: [], portal_settings: null, catalogue: [] };
    const renamed = { ...f, organisation: { ...f.organisation, id: other }, ...emptied };
    const retagged = JSON.parse(JSON.stringify(renamed).replaceAll(`"org_id":"${org.orgId}"`, `"org_id":"${other}"`));
    const r = await b.admin('POST', '/admin/organisations/import', retagged);
    expect(r.status, r.text).toBe(409);
    expect(r.text).toContain(`policy ${world.policy} is stored already`);
    expect(r.text).toContain(`key ${world.keys[0].hash} is stored already`);
    expect(r.text).toContain(`developer ${f.developers[0].id} is stored already`);
    expect((await b.admin('GET', `/admin/organisations/${other}`)).status).toBe(404);
    expect(await written(b.table)).toEqual(before);
  });

  it('undoes an import that fails midway: the organisation it created is offboarded, and nothing of it stays', async () => {
    const other = uid('org');
    // A user too large for an item (400 KB): the objects before it are written before its write fails.
    const noise = 'n'.repeat(450_000);
    const file = fullOrgFile(other);
    Object.assign(file.users[0]!, { notes: noise });
    const r = await b.admin('POST', '/admin/organisations/import', file);
    expect(r.status, r.text).toBe(409);
    expect(r.text).toContain('being removed');
    const deadline = Date.now() + 60_000;
    let run: Any = {};
    while (run.state !== 'done' && Date.now() < deadline) {
      run = (await b.admin('GET', `/admin/organisations/${other}/offboarding`)).body.Meta ?? {};
      await new Promise((res) => setTimeout(res, 250));
    }
    expect(run.state).toBe('done');
    // The offboarding's record and the failed import's stay on record (GET .../offboarding, GET .../import).
    expect((await heldBy(b.table, other)).filter((i) => !['offboarding', 'deletion', 'import_run'].includes(String(i.entity)))).toEqual([]);
    expect((await b.admin('GET', `/admin/organisations/${other}/import`)).body.Meta).toMatchObject({ state: 'failed', handed_over_at: null });
    // The same id imports once the undo is done: its finished run gives way, and a hook without a secret gets a new one.
    const ok = await b.admin('POST', '/admin/organisations/import', fullOrgFile(other));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.Meta.webhook_secrets).toBe('new');
    expect((await b.admin('GET', `/admin/organisations/${other}/offboarding`)).status).toBe(404);
  });

  /** Waits for the organisation's background import to end; answers its run. */
  async function importEnded(orgId: string): Promise<Any> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await b.admin('GET', `/admin/organisations/${orgId}/import`);
      expect(r.status, r.text).toBe(200);
      if (r.body.Meta.state !== 'importing' || Date.now() > deadline) return r.body.Meta;
      await new Promise((res) => setTimeout(res, 200));
    }
  }

  /**
   * A run as an import's request leaves it when it stops: claimed and held for `heldMs`, its writes
   * stored beside it, and the organisation's first write made when `restored`.
   */
  async function requestLeft(restore: Restore, opts: { restored: boolean; heldMs?: number }) {
    const orgId = restore.organisation.id;
    const heldUntil = Date.now() + (opts.heldMs ?? 60_000);
    const run = await claimImportRun(orgId, { total: restoreObjects(restore).length, startedAt: new Date().toISOString(), heldUntil });
    const parts = await storeImportWrites(orgId, restore);
    if (!opts.restored) return moveImportRun(run, 0, { parts });
    await startRestore(restore, [importRunMove(run, 0, { parts, restored: true })]);
    return movedRun(run, 0, { parts, restored: true });
  }

  /** The items of an organisation by kind, but the run's and the change feed's. */
  const kindsHeldBy = async (orgId: string) =>
    byEntity((await heldBy(b.table, orgId)).filter((i) => !/^import_|audit|deletion|usage|event/.test(String(i.entity))));

  it('hands what its request does not write (everything, when asked) over to the background, which writes the same items', async () => {
    const [now, later] = [uid('org'), uid('org')];
    expect((await b.admin('POST', '/admin/organisations/import', fullOrgFile(now))).body.Meta.state).toBe('done');
    // An import its request wrote whole is on record too: nothing handed over.
    const whole = await b.admin('GET', `/admin/organisations/${now}/import`);
    expect(whole.body.Meta).toMatchObject({ state: 'done', written: 8, total: 8, handed_over_at: null });
    expect((await b.admin('GET', `/admin/organisations/${uid('org')}/import`)).status).toBe(404);
    const r = await b.admin('POST', '/admin/organisations/import?background=true', fullOrgFile(later));
    expect(r.status, r.text).toBe(200);
    expect(r.body.Message).toBe(`Importing in the background: GET /admin/organisations/${later}/import`);
    expect(r.body.Meta).toMatchObject({ org_id: later, state: 'importing', imported: { apis: 1, keys: 1, users: 1 } });
    const run = await importEnded(later);
    // Session, policy, API, client, key, hook, template, user: 8 objects, all written by the background run.
    expect(run).toMatchObject({ org_id: later, state: 'done', written: 8, total: 8, reason: null, finished_at: expect.any(String) });
    expect(await kindsHeldBy(later)).toEqual(await kindsHeldBy(now));
    const counts = (await heldBy(b.table, later)).filter((i) => i.entity === 'counter').map((i) => [String(i.SK), i.n]);
    expect(Object.fromEntries(counts)).toMatchObject({ 'COUNT#API': 1, 'COUNT#KEY': 1, 'COUNT#POLICY': 1, 'COUNT#HOOK': 1, 'COUNT#ASSET': 1, 'COUNT#USER': 1 });
    // Its writes were removed with the run's end; the run stays for the read.
    expect((await heldBy(b.table, later)).filter((i) => i.entity === 'import_part')).toEqual([]);
  });

  it('a run handed over again after a crash finds what it wrote and writes only what is missing', async () => {
    const [orgId, whole] = [uid('org'), uid('org')];
    expect((await b.admin('POST', '/admin/organisations/import', fullOrgFile(whole))).status).toBe(200);
    const restore = await restoreOf(fullOrgFile(orgId) as never);
    const run = await requestLeft(restore, { restored: true });
    // What a worker that died in its stretch leaves: the hook not written, the key without its quota, the user without its e-mail.
    const objects = restoreObjects(restore);
    const entity = (o: (typeof objects)[number]) => ('items' in o ? String(o.items[0]!.op.Put?.Item?.entity) : 'api');
    const partly = objects
      .filter((o) => entity(o) !== 'hook')
      .map((o) => ('items' in o && ['key', 'user'].includes(entity(o)) ? { items: o.items.slice(0, 1) } : o));
    await writeObjects(partly, 0, Date.now() + 60_000);
    expect(await kindsHeldBy(orgId)).not.toEqual(await kindsHeldBy(whole));
    await moveImportRun(run, 0, { handOver: true });
    expect(await importEnded(orgId)).toMatchObject({ state: 'done', written: 8, total: 8 });
    expect(await kindsHeldBy(orgId)).toEqual(await kindsHeldBy(whole));
    const counts = (await heldBy(b.table, orgId)).filter((i) => i.entity === 'counter').map((i) => [String(i.SK), i.n]);
    expect(Object.fromEntries(counts)).toMatchObject({ 'COUNT#API': 1, 'COUNT#KEY': 1, 'COUNT#HOOK': 1, 'COUNT#USER': 1 });
  });

  it('a request cut off before it handed its run over: once its hold passes, the worker takes the run over from where the request stood', async () => {
    const [orgId, whole, bare] = [uid('org'), uid('org'), uid('org')];
    expect((await b.admin('POST', '/admin/organisations/import', fullOrgFile(whole))).status).toBe(200);
    // Cut off after its first objects.
    const restore = await restoreOf(fullOrgFile(orgId) as never);
    const run = await requestLeft(restore, { restored: true, heldMs: 1500 });
    await writeObjects(restoreObjects(restore).slice(0, 3), 0, Date.now() + 60_000);
    await moveImportRun(run, 3);
    expect((await b.admin('GET', `/admin/organisations/${orgId}/import`)).body.Meta).toMatchObject({ state: 'importing', written: 3, handed_over_at: null });
    expect(await importEnded(orgId)).toMatchObject({ state: 'done', written: 8, total: 8, handed_over_at: expect.any(String) });
    expect(await kindsHeldBy(orgId)).toEqual(await kindsHeldBy(whole));
    // Cut off before the organisation's own first write: the worker makes it.
    await requestLeft(await restoreOf(fullOrgFile(bare) as never), { restored: false, heldMs: 1500 });
    expect((await b.admin('GET', `/admin/organisations/${bare}`)).status).toBe(404);
    expect(await importEnded(bare)).toMatchObject({ state: 'done', written: 8 });
    expect(await kindsHeldBy(bare)).toEqual(await kindsHeldBy(whole));
  });

  it('a run claimed by an import under way refuses another import of the id; one cut off before storing its writes fails, having written nothing', async () => {
    const orgId = uid('org');
    const total = restoreObjects(await restoreOf(fullOrgFile(orgId) as never)).length;
    await claimImportRun(orgId, { total, startedAt: new Date().toISOString(), heldUntil: Date.now() + 2000 });
    const twice = await b.admin('POST', '/admin/organisations/import', fullOrgFile(orgId));
    expect(twice.status, twice.text).toBe(409);
    expect(twice.body.Message).toBe(`organisation ${orgId} is being imported: GET /admin/organisations/${orgId}/import`);
    const run = await importEnded(orgId);
    expect(run).toMatchObject({ state: 'failed', written: 0, reason: 'its request stopped before it handed its writes over; nothing was written' });
    expect((await heldBy(b.table, orgId)).filter((i) => i.entity !== 'import_run')).toEqual([]);
    expect((await b.admin('GET', `/admin/organisations/${orgId}/offboarding`)).status).toBe(404);
    // The id imports once the run has ended.
    expect((await b.admin('POST', '/admin/organisations/import', fullOrgFile(orgId))).body.Meta.state).toBe('done');
  });

  it("a run refused by another organisation's item fails, says why, and offboards what it wrote; the other's item stands", async () => {
    const orgId = uid('org');
    const file = fullOrgFile(orgId);
    // Taken after the request checked the file: the key of the organisation imported from A.
    file.keys[0]!.session.key_hash = world.keys[0].hash;
    await moveImportRun(await requestLeft(await restoreOf(file as never), { restored: true }), 0, { handOver: true });
    const run = await importEnded(orgId);
    expect(run).toMatchObject({ state: 'failed', reason: 'key already exists' });
    expect((await b.gw('POST', '/gw/sessions/check', { key: world.keys[0].key, api_id: world.api2 })).status).toBe(200);
    const deadline = Date.now() + 60_000;
    let off: Any = {};
    while (off.state !== 'done' && Date.now() < deadline) {
      off = (await b.admin('GET', `/admin/organisations/${orgId}/offboarding`)).body.Meta ?? {};
      await new Promise((res) => setTimeout(res, 250));
    }
    expect(off.state).toBe('done');
    expect((await heldBy(b.table, orgId)).filter((i) => !['offboarding', 'deletion', 'import_run', 'import_part'].includes(String(i.entity)))).toEqual([]);
  });

  it('gwctl export writes the file and gwctl import reads it back', async () => {
    const path = join(dataDir, 'org.json');
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), env: { GW_URL: a.url, GW_ADMIN_SECRET: ADMIN_SECRET } };
    expect(await run(['export', '--org-id', org.orgId, '--out', path], io), out.join('\n')).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path, 'utf8')).toBe(file);
    expect(await run(['import', '--file', path], { ...io, env: { GW_URL: b.url, GW_ADMIN_SECRET: ADMIN_SECRET } })).toBe(1);
    expect(out.join('\n')).toContain('is stored already');
    // In the background, followed to its end.
    const fresh = uid('org');
    writeFileSync(path, JSON.stringify(fullOrgFile(fresh)));
    out.length = 0;
    expect(await run(['import', '--file', path, '--background', '--wait'], { ...io, env: { GW_URL: b.url, GW_ADMIN_SECRET: ADMIN_SECRET } })).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^${fresh}: importing 0 domains, 1 apis, .* in the background; webhook secrets new$`));
    expect(out.at(-1)).toBe(`${fresh}: done, 8 of 8 objects written`);
  });
});
