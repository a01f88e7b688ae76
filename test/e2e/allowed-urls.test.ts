/**
 * allowed_urls through the service (docs/reference/limits.md, contract §6 and §10): every write that
 * stores access rights refuses rules past the limits, or a pattern that is not RE2, with a 400
 * naming the member and stores nothing; a key at the limit is checked exactly as its rules tried
 * one by one say; and one tenant's many distinct patterns do not rebuild another key's rules.
 */
import { RE2JS, RE2Set } from 're2js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALLOWED_URL_LIMITS } from '../../shared/limits';
import { diffSnapshots, snapshotTable } from '../hardening/support/snapshot';
import { makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { onEmulator, startStage, type Answer, type Stage } from '../support/stage';

let s: Stage;
let t: { orgId: string; key: string };
let apiId: string;
let otherApi: string;
beforeAll(async () => {
  // A session read stays cached for the whole file: the last test counts what a check rebuilds.
  process.env.CACHE_SECONDS = '60';
  s = await startStage();
  t = await s.tenant();
  apiId = await makeApi(s, t.orgId);
  otherApi = await makeApi(s, t.orgId, 'other');
});
afterAll(() => s?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

type Rule = { url: string; methods?: string[] };
const rules = (n: number, prefix: string): Rule[] => Array.from({ length: n }, (_, i) => ({ url: `^/${prefix}${i}/[0-9]+$`, methods: ['GET'] }));
/** Access rights over the two APIs, with these rules on each. */
const rights = (mine: Rule[], other: Rule[] = []) => ({
  [apiId]: { ...rightsFor(apiId)[apiId], allowed_urls: mine },
  [otherApi]: { ...rightsFor(otherApi)[otherApi], allowed_urls: other },
});

/** Three ways past the limits, each with the member it names. */
const BREACHES = () => [
  {
    what: `${ALLOWED_URL_LIMITS.rules + 1} rules over two APIs`,
    rights: rights(rules(60, 'a'), rules(41, 'b')),
    path: `access_rights.${otherApi}.allowed_urls.40`,
    message: /^at most 100 allowed_urls rules in one key's or policy's access_rights, all APIs together \(101 given\)$/,
  },
  {
    what: 'a pattern that is not RE2',
    rights: rights([{ url: '^/ok' }, { url: '^/(unclosed' }]),
    path: `access_rights.${apiId}.allowed_urls.1.url`,
    message: /^not an RE2/,
  },
  {
    what: 'rules of more than 5,000 instructions',
    rights: rights([{ url: '[a-z]{1000}[a-z]{1000}[a-z]{1000}' }], [{ url: '[0-9]{1000}[0-9]{1000}' }]),
    path: `access_rights.${otherApi}.allowed_urls.0.url`,
    message: /compile to at most 5,000 RE2 instructions together; with this one they take 5,004$/,
  },
];

const errorsOf = (r: Answer) => (r.body?.errors ?? r.body?.Meta?.errors ?? []) as Array<{ path: string; message: string }>;

/** Sends each breach through `write`; each is a 400 naming its member (under `prefix`), and the table does not change. */
async function refusesEach(write: (rights: Record<string, unknown>) => Promise<Answer>, prefix = 'body.') {
  for (const b of BREACHES()) {
    const before = await snapshotTable(s.table);
    const r = await write(b.rights);
    expect(r.status, `${b.what}: ${JSON.stringify(r.body).slice(0, 400)}`).toBe(400);
    expect(errorsOf(r), b.what).toEqual([{ path: `${prefix}${b.path}`, message: expect.stringMatching(b.message) }]);
    expect(diffSnapshots(before, await snapshotTable(s.table)), b.what).toEqual([]);
  }
}

describe('every write that stores access rights refuses allowed_urls past the limits, naming the member, and stores nothing', () => {
  it('keys: POST /gw/keys/create, POST /admin/org/keys, POST /api/keys', async () => {
    await refusesEach((r) => s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: r }));
    await refusesEach((r) => s.admin('POST', '/admin/org/keys', { org_id: t.orgId, access_rights: r }));
    await refusesEach((r) => s.dash(t.key, 'POST', '/api/keys', { access_rights: r }));
  });

  it('keys: PUT /api/apis/{apiID}/keys/{keyRef}, PUT /api/keys/{keyHash} (the key keeps its rules)', async () => {
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rights(rules(2, 'kept')) });
    await refusesEach((r) => s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}`, { access_rights: r }));
    await refusesEach((r) => s.dash(t.key, 'PUT', `/api/keys/${hash}`, { access_rights: r }));
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.access_rights[apiId].allowed_urls).toEqual(rules(2, 'kept'));
  });

  it("the organisation's session: PUT /gw/org/keys/{orgID}", async () => {
    await refusesEach((r) => s.gw('PUT', `/gw/org/keys/${t.orgId}`, { access_rights: r }));
  });

  it('policies: POST and PUT /gw/policies, POST and PUT /api/portal/policies, POST /admin/policies/import', async () => {
    await refusesEach((r) => s.gw('POST', '/gw/policies', { id: uid('p'), org_id: t.orgId, access_rights: r }));
    const gwPolicy = uid('p');
    expect((await s.gw('POST', '/gw/policies', { id: gwPolicy, org_id: t.orgId, access_rights: rights(rules(1, 'p')) })).status).toBe(200);
    await refusesEach((r) => s.gw('PUT', `/gw/policies/${gwPolicy}`, { id: gwPolicy, org_id: t.orgId, access_rights: r }));
    await refusesEach((r) => s.dash(t.key, 'POST', '/api/portal/policies', { name: 'big', access_rights: r }));
    const made = await s.dash(t.key, 'POST', '/api/portal/policies', { name: 'small', access_rights: rights(rules(1, 'p')) });
    expect(made.status).toBe(200);
    await refusesEach((r) => s.dash(t.key, 'PUT', `/api/portal/policies/${made.body.Meta}`, { name: 'big', access_rights: r }));
    // The second policy of three is past the limits: none of the three is written.
    await refusesEach(
      (r) => s.admin('POST', '/admin/policies/import', { Data: [{ id: uid('i') }, { id: uid('i'), org_id: t.orgId, access_rights: r }, { id: uid('i') }] }),
      'body.Data.1.',
    );
  });
});

/** Each pattern alone, one by one, as the check has always meant it. */
function oneByOne(ruleList: Rule[], path: string, method: string): boolean {
  return ruleList.some((r) => RE2JS.compile(r.url).matcher(path).find() && (!r.methods?.length || r.methods.includes(method)));
}

describe('a key at the limit', () => {
  it(`is stored with ${ALLOWED_URL_LIMITS.rules} rules, and each check answers what its rules tried one by one answer`, async () => {
    const ruleList: Rule[] = Array.from({ length: ALLOWED_URL_LIMITS.rules }, (_, i) =>
      i % 4 === 0
        ? { url: `^/r${i}/(?:[a-z]+/)*[0-9]+$` }
        : i % 4 === 1
          ? { url: `/x${i}$`, methods: ['POST'] }
          : { url: `^/r${i}/`, methods: ['GET', 'DELETE'] },
    );
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rights(ruleList) });
    const paths = ['/r0/12', '/r0/a/b/12', '/r0/a', '/r1/x1', '/a/x1', '/a/x5/', '/r2/', '/r2', '/r99/z', '/r98/1', '/nothing', '/R2/'];
    const answers: string[] = [];
    const statuses: number[] = [];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const r = await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path, method });
        expect([200, 403], JSON.stringify(r.body)).toContain(r.status);
        statuses.push(r.status);
        const expected = oneByOne(ruleList, path, method);
        if ((r.status === 200) !== expected) answers.push(`${method} ${path}: ${r.status}, expected ${expected ? 200 : 403}`);
      }
    }
    expect(answers).toEqual([]);
    expect(statuses.filter((c) => c === 200).length).toBeGreaterThan(5);
    expect(statuses.filter((c) => c === 403).length).toBeGreaterThan(5);
  });
});

describe("one tenant's patterns and another key's compiled rules", () => {
  // The in-process server's modules are this file's: only there can compilations be counted.
  it.skipIf(onEmulator)("a tenant's 1,100 distinct patterns (11 keys at the limit) neither evict nor rebuild another organisation's key's rules", async () => {
    const mineUrl = `^/mine-${uid('m')}/[0-9]+$`;
    const mine = await makeKey(s, { org_id: t.orgId, access_rights: rights([{ url: mineUrl, methods: ['GET'] }]) });
    const other = await s.tenant();
    const otherApiId = await makeApi(s, other.orgId);
    const theirs = await Promise.all(
      Array.from({ length: 11 }, (_, k) =>
        makeKey(s, {
          org_id: other.orgId,
          access_rights: { [otherApiId]: { ...rightsFor(otherApiId)[otherApiId], allowed_urls: rules(ALLOWED_URL_LIMITS.rules, `theirs${k}-`) } },
        }),
      ),
    );
    // Every key is written before the first check (a key or policy update empties this process's session cache).
    const seen = new Map<string, number>();
    const note = (p: string) => seen.set(p, (seen.get(p) ?? 0) + 1);
    const add = RE2Set.prototype.add;
    vi.spyOn(RE2Set.prototype, 'add').mockImplementation(function (this: RE2Set, p: string) {
      note(p);
      return add.call(this, p);
    });
    const compile = RE2JS.compile.bind(RE2JS);
    vi.spyOn(RE2JS, 'compile').mockImplementation((p: string, flags?: number) => {
      note(p);
      return compile(p, flags);
    });
    const check = (key: string, api: string, path: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: api, path, method: 'GET' });
    const minePath = mineUrl.slice(1).replace('[0-9]+$', '7');
    expect((await check(mine.key, apiId, minePath)).status).toBe(200);
    for (const { key } of theirs) {
      expect((await check(key, otherApiId, '/theirs0-3/12')).status).toBe(key === theirs[0]!.key ? 200 : 403);
      expect((await check(key, otherApiId, '/elsewhere')).status).toBe(403);
    }
    expect((await check(mine.key, apiId, minePath)).status).toBe(200);
    expect((await check(mine.key, apiId, '/yours/7')).status).toBe(403);
    expect([...seen.keys()].filter((p) => p.startsWith('^/theirs')).length).toBe(1100);
    expect(seen.get(mineUrl)).toBe(1);
  });
});
