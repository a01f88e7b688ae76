/**
 * Per-organisation limits (docs/reference/limits.md): a dashboard write spends one unit of its
 * organisation's `writes` limit, the webhook test and redelivery one of the tighter `hookTest`
 * limit, a dashboard read one of the `reads` limit (while it reads), each per fixed 60-second window; a spent limit is 429 in the dashboard envelope with
 * Retry-After, the seconds until the window ends. Exact under concurrency, per organisation, and
 * spent only by requests that are authenticated, allowed by the user's permissions and valid.
 *
 * The clock is this process's Date, faked (the stage runs in this process): each test starts at a
 * known second of a window, so no burst straddles two windows and Retry-After is exact. The
 * `writes` and `reads` limits are lowered for this file (ORG_WRITE_LIMIT, ORG_READ_LIMIT) to keep
 * its bursts small; `hookTest` runs on its real default. The emulated stage runs in other processes, whose clock and
 * environment these tests cannot set: they skip there.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORG_LIMITS } from '../../shared/limits';
import { ddb } from '../../shared/store/db/client';
import { hookBody, makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { commandRecorder } from '../support/sent-commands';
import { onEmulator, startStage, type Answer, type Stage } from '../support/stage';

const WRITE_LIMIT = 30;
const READ_LIMIT = 40;
const HOOK_TEST_LIMIT = ORG_LIMITS.hookTest.perWindow;
const PORTAL_LIMIT = 12;

let s: Stage;
/** A window start (epoch seconds) far from every other test file's clock. */
let window = Math.floor(Date.UTC(2031, 0, 1) / 60_000) * 60;

beforeAll(async () => {
  if (onEmulator) return;
  process.env.ORG_WRITE_LIMIT = String(WRITE_LIMIT);
  process.env.ORG_READ_LIMIT = String(READ_LIMIT);
  delete process.env.ORG_HOOK_TEST_LIMIT;
  process.env.ORG_PORTAL_LIMIT = String(PORTAL_LIMIT);
  s = await startStage();
});
afterAll(async () => {
  vi.useRealTimers();
  await s?.close();
});
const recorded = commandRecorder();

/** Each test in a window of its own, 15 s in: Retry-After is then 45. */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  window += 600;
  vi.setSystemTime((window + 15) * 1000);
});

/**
 * An organisation with a webhook and `n` gateway keys granting one API, made in the window before
 * the test's (the webhook create spends a write there), so the test's window starts empty.
 */
async function org(keys = 0) {
  vi.setSystemTime((window - 30) * 1000);
  const t = await s.tenant(uid('lim'));
  const hook = await s.dash(t.key, 'POST', '/api/hooks', hookBody('limited'));
  expect(hook.status, hook.text).toBe(200);
  const apiId = await makeApi(s, t.orgId);
  const made = await Promise.all(Array.from({ length: keys }, () => makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId) })));
  vi.setSystemTime((window + 15) * 1000);
  return { ...t, hookId: hook.body.Meta as string, apiId, keys: made.map((k) => k.key) };
}

const keyUpdate = (o: { key: string; apiId: string }, keyId: string) =>
  s.dash(o.key, 'PUT', `/api/apis/${o.apiId}/keys/${keyId}`, { access_rights: rightsFor(o.apiId), alias: 'changed' });

/** The organisation's counter of the current window, as stored (undefined: nothing spent). */
async function counter(orgId: string, cls: string) {
  const out = await ddb().send(
    new QueryCommand({
      TableName: s.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `ORGLIMIT#${orgId}#${cls}` },
      ConsistentRead: true,
    }),
  );
  return out.Items?.find((i) => i.SK === `W#${window}`);
}

function expectLimited(r: Answer, what: RegExp) {
  expect(r.status, r.text).toBe(429);
  expect(r.headers.get('retry-after')).toBe('45');
  expect(r.body).toEqual({ Status: 'Error', Message: expect.stringMatching(what), Meta: null });
}

const tally = (answers: Answer[]) => answers.reduce<Record<number, number>>((a, r) => ({ ...a, [r.status]: (a[r.status] ?? 0) + 1 }), {});

describe.skipIf(onEmulator)('per-organisation limits', () => {
  it(
    `dashboard writes: of ${WRITE_LIMIT + 10} concurrent writes exactly ${WRITE_LIMIT} pass, the rest ` +
      `are 429 with Retry-After; other organisations, reads and the hookTest class are untouched`,
    async () => {
      const a = await org(WRITE_LIMIT + 10);
      const b = await org();
      const answers = await Promise.all(a.keys.map((k) => keyUpdate(a, k)));
      expect(tally(answers)).toEqual({ 200: WRITE_LIMIT, 429: 10 });
      for (const r of answers.filter((x) => x.status === 429))
        expectLimited(r, new RegExp(`made its ${WRITE_LIMIT} dashboard writes of this 60-second window; retry in 45 s`));
      expect(await counter(a.orgId, 'writes')).toMatchObject({ used: WRITE_LIMIT, expires_at: window + 60, entity: 'org_limit' });
      // Every write route spends the same budget: a webhook create is refused too, and nothing is stored.
      expectLimited(await s.dash(a.key, 'POST', '/api/hooks', hookBody('one too many')), /dashboard writes/);
      expect((await s.dash(a.key, 'GET', '/api/hooks')).body.hooks).toHaveLength(1);
      expect((await s.dash(b.key, 'POST', '/api/hooks', hookBody('other org'))).status).toBe(200);
      expect((await s.dash(a.key, 'GET', `/api/hooks/${a.hookId}`)).status).toBe(200);
      expect((await s.dash(a.key, 'POST', `/api/hooks/${a.hookId}/test`)).status).toBe(200);
    },
  );

  it("a dashboard write spends its unit inside its own write's transaction: one round trip, none of its own", async () => {
    const a = await org(1);
    const created = await recorded(() => s.dash(a.key, 'POST', '/api/hooks', hookBody('one trip')));
    expect(created.result.status, created.result.text).toBe(200);
    // The only write the request sends is the hook's transaction, and it carries the unit: no UpdateItem of the counter before it.
    expect(created.commands.filter((c) => !/^(GetItem|BatchGetItem|Query)Command$/.test(c.command)).map((c) => c.command)).toEqual([
      'TransactWriteItemsCommand',
    ]);
    expect(await counter(a.orgId, 'writes')).toMatchObject({ used: 1 });
    // A single write (a key's update) becomes a transaction of two, the same one round trip.
    const updated = await recorded(() => keyUpdate(a, a.keys[0]!));
    expect(updated.result.status, updated.result.text).toBe(200);
    expect(updated.commands.filter((c) => c.command === 'UpdateItemCommand' && c.key.startsWith('ORGLIMIT#'))).toEqual([]);
    expect(await counter(a.orgId, 'writes')).toMatchObject({ used: 2 });
    // A write that fails for its own reason stores nothing and still spends its unit, as it did when units were spent first.
    expect((await s.dash(a.key, 'PUT', `/api/hooks/${'f'.repeat(24)}`, hookBody('none'))).status).toBe(404);
    expect(await counter(a.orgId, 'writes')).toMatchObject({ used: 3 });
  });

  it(
    `dashboard reads: of ${READ_LIMIT + 10} concurrent reads exactly ${READ_LIMIT} pass (answered as read, 404 included), the rest ` +
      'are 429 with Retry-After and spend nothing; once the window is seen full a read is refused before it reads; ' +
      'other organisations and writes are untouched',
    async () => {
      const a = await org(1);
      const b = await org();
      const answers = await Promise.all(
        Array.from({ length: READ_LIMIT + 10 }, (_, i) => s.dash(a.key, 'GET', i % 2 ? `/api/hooks/${a.hookId}` : '/api/hooks/nohook')),
      );
      const t = tally(answers);
      expect(t[429]).toBe(10);
      expect((t[200] ?? 0) + (t[404] ?? 0)).toBe(READ_LIMIT);
      for (const r of answers.filter((x) => x.status === 429))
        expectLimited(r, new RegExp(`made its ${READ_LIMIT} dashboard reads of this 60-second window; retry in 45 s`));
      expect(await counter(a.orgId, 'reads')).toMatchObject({ used: READ_LIMIT, expires_at: window + 60, entity: 'org_limit' });
      // Every read route spends the same budget; a refused one reads neither the list nor the counter.
      const refused = await recorded(() => s.dash(a.key, 'GET', '/api/portal/policies'));
      expectLimited(refused.result, /dashboard reads/);
      expect(refused.commands.filter((c) => c.command === 'QueryCommand' || c.command === 'UpdateItemCommand')).toEqual([]);
      expect((await s.dash(b.key, 'GET', `/api/hooks/${b.hookId}`)).status).toBe(200);
      expect((await keyUpdate(a, a.keys[0]!)).status).toBe(200);
      expect(await counter(a.orgId, 'reads')).toMatchObject({ used: READ_LIMIT });
    },
  );

  it('a new window renews the limit: refused until the window ends, allowed from its first second', async () => {
    const a = await org(WRITE_LIMIT + 2);
    const answers = await Promise.all(a.keys.slice(0, WRITE_LIMIT).map((k) => keyUpdate(a, k)));
    expect(tally(answers)).toEqual({ 200: WRITE_LIMIT });
    vi.setSystemTime((window + 59) * 1000 + 999);
    const last = await keyUpdate(a, a.keys[WRITE_LIMIT]!);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toBe('1');
    vi.setSystemTime((window + 60) * 1000);
    expect((await keyUpdate(a, a.keys[WRITE_LIMIT]!)).status).toBe(200);
    expect((await keyUpdate(a, a.keys[WRITE_LIMIT + 1]!)).status).toBe(200);
  });

  it(
    `webhook test and redelivery share the tighter hookTest limit on its default (${HOOK_TEST_LIMIT}): ` + `exact under concurrency, and writes stay open`,
    async () => {
      const a = await org(1);
      // A redelivery spends a unit even for a delivery that is not there (the limit comes first).
      const redeliver = await s.dash(a.key, 'POST', `/api/hooks/${a.hookId}/deliveries/nodelivery/redeliver`);
      expect(redeliver.status).toBe(404);
      const answers = await Promise.all(Array.from({ length: HOOK_TEST_LIMIT + 9 }, () => s.dash(a.key, 'POST', `/api/hooks/${a.hookId}/test`)));
      expect(tally(answers)).toEqual({ 200: HOOK_TEST_LIMIT - 1, 429: 10 });
      const limited = /made its 60 webhook tests and redeliveries of this 60-second window; retry in 45 s/;
      for (const r of answers.filter((x) => x.status === 429)) expectLimited(r, limited);
      expectLimited(await s.dash(a.key, 'POST', `/api/hooks/${a.hookId}/deliveries/nodelivery/redeliver`), limited);
      expect(await counter(a.orgId, 'hookTest')).toMatchObject({ used: HOOK_TEST_LIMIT });
      expect((await keyUpdate(a, a.keys[0]!)).status).toBe(200);
    },
  );

  it('requests without a valid credential, refused by permissions or by validation spend nothing', async () => {
    const a = await org(WRITE_LIMIT);
    const readOnly = await s.admin('POST', '/admin/users', {
      org_id: a.orgId,
      email_address: `${uid('ro')}@lim.example`,
      user_permissions: { keys: 'read', hooks: 'read' },
    });
    const inactive = await s.admin('POST', '/admin/users', { org_id: a.orgId, email_address: `${uid('off')}@lim.example`, active: false });
    const path = `/api/apis/${a.apiId}/keys/${a.keys[0]}`;
    const body = { access_rights: rightsFor(a.apiId) };
    const junk: Array<Promise<Answer>> = [];
    for (let i = 0; i < 20; i++) {
      junk.push(s.call('PUT', path, { body }));
      junk.push(s.call('PUT', path, { body, headers: { authorization: 'Bearer 0123456789abcdef0123456789abcdef' } }));
      junk.push(s.dash(inactive.body.Meta.access_key, 'PUT', path, body));
      junk.push(s.dash(readOnly.body.Meta.access_key, 'PUT', path, body));
      junk.push(s.dash(readOnly.body.Meta.access_key, 'POST', `/api/hooks/${a.hookId}/test`));
      junk.push(s.dash(a.key, 'PUT', path, { access_rights: 'not an object' }));
    }
    expect(tally(await Promise.all(junk))).toEqual({ 400: 20, 401: 60, 403: 40 });
    expect(await counter(a.orgId, 'writes')).toBeUndefined();
    expect(await counter(a.orgId, 'hookTest')).toBeUndefined();
    expect(tally(await Promise.all(a.keys.map((k) => keyUpdate(a, k))))).toEqual({ 200: WRITE_LIMIT });
  });

  it(`a developer portal: every public and developer request of one organisation's portal counts, ${PORTAL_LIMIT} per window, then 429`, async () => {
    const portalOf = async () => {
      const o = await org();
      vi.setSystemTime((window - 20) * 1000);
      expect((await s.dash(o.key, 'PUT', '/api/portal/settings', { enabled: true, sign_up: 'open' })).status).toBe(200);
      vi.setSystemTime((window + 15) * 1000);
      return o;
    };
    const [a, b] = [await portalOf(), await portalOf()];
    const answers = await Promise.all(Array.from({ length: PORTAL_LIMIT + 4 }, () => s.call('GET', `/portal/${a.orgId}/catalogue`)));
    expect(tally(answers)).toEqual({ 200: PORTAL_LIMIT, 429: 4 });
    for (const r of answers.filter((x) => x.status === 429)) {
      expectLimited(r, new RegExp(`made its ${PORTAL_LIMIT} requests to its developer portal of this 60-second window; retry in 45 s`));
    }
    // Sign-in is the same class, spent before any password is checked; another organisation's portal and dashboard are untouched.
    const signIn = await s.call('POST', `/portal/${a.orgId}/sessions`, { body: { email_address: 'x@example.com', password: 'whatever it is' } });
    expectLimited(signIn, /developer portal/);
    expect((await s.call('GET', `/portal/${b.orgId}/catalogue`)).status).toBe(200);
    expect((await s.dash(a.key, 'GET', '/api/portal/settings')).status).toBe(200);
    expect(await counter(a.orgId, 'portal')).toMatchObject({ used: PORTAL_LIMIT });
  });
});
