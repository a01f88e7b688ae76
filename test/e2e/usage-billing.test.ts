/**
 * Contract §14, usage for billing, through the local stage and its change feed: the figures are
 * what the check decided (allowed, and refused by reason), per organisation, API and day, under
 * concurrency; one organisation's traffic never shows in another's; the admin routes answer them as
 * JSON and as CSV; a record the feed hands over again, in any batch, counts once. (The check still
 * spends in one write, the tally riding on it: test/e2e/check-one-write.test.ts.)
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as usageConsumer } from '../../functions/billing/change-feed';
import { keyHash } from '../../shared/domain/key-ids';
import { ddb } from '../../shared/store/db/client';
import { counterOf } from '../../shared/store/keys';
import { promote } from '../../shared/store/live-quota/shards';
import { run } from '../../tools/gwctl/main';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';
import { ADMIN_SECRET } from '../support/table';
import { onEmulator } from '../support/stage';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage({ changeFeed: true });
const [a, b] = useTenants(s, 2);

const month = () => new Date().toISOString().slice(0, 7);
const check = (key: string, apiId: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId });

/** One organisation's month, once the feed has counted everything so far. */
async function usageOf(orgId: string, query = '') {
  await s.caughtUp();
  const r = await s.admin('GET', `/admin/organisations/${orgId}/usage?month=${month()}${query}`);
  expect(r.status, r.text).toBe(200);
  return r;
}

describe.skipIf(onEmulator)('the month of an organisation is what the check decided', () => {
  it('N concurrent allowed checks are N; refusals are counted by reason; the other organisation sees none of it', async () => {
    const [api1, api2, other] = [await makeApi(s, a.orgId, 'one'), await makeApi(s, a.orgId, 'two'), await makeApi(s, b.orgId, 'b')];
    const { key } = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(api1, api2) });
    const limited = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(api1), quota_max: 5, quota_renewal_rate: 3600 });

    const answers = await Promise.all([
      ...Array.from({ length: 40 }, () => check(key, api1)),
      ...Array.from({ length: 15 }, () => check(key, api2)),
      ...Array.from({ length: 8 }, () => check(limited.key, api1)),
      // Not granted by the key: AccessDenied, counted for the key's organisation.
      ...Array.from({ length: 3 }, () => check(key, other)),
      // Unknown: no organisation to count it for.
      check('no-such-key', api1),
    ]);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(60);
    expect(statuses.filter((x) => x === 429)).toHaveLength(3);

    const r = await usageOf(a.orgId);
    expect(r.body.total).toEqual({ allowed: 60, refused: 6, refused_by_reason: { QuotaExceeded: 3, AccessDenied: 3 } });
    expect(r.body.apis).toEqual(
      [
        { api_id: api1, allowed: 45, refused: 3, refused_by_reason: { QuotaExceeded: 3 } },
        { api_id: api2, allowed: 15, refused: 0, refused_by_reason: {} },
        { api_id: other, allowed: 0, refused: 3, refused_by_reason: { AccessDenied: 3 } },
      ].sort((x, y) => (x.api_id < y.api_id ? -1 : 1)),
    );
    // The days add up to the month (a run across midnight UTC splits them; it never loses one).
    const days = r.body.days as Array<{ day: string; api_id: string; allowed: number }>;
    expect(days.filter((d) => d.api_id === api1).reduce((n, d) => n + d.allowed, 0)).toBe(45);
    for (const d of days) expect(d.day.slice(0, 7)).toBe(month());

    // The other organisation used nothing.
    expect((await usageOf(b.orgId)).body.total).toEqual({ allowed: 0, refused: 0, refused_by_reason: {} });
    // The installation's month names each organisation with its own figures.
    const all = await s.admin('GET', `/admin/usage?month=${month()}`);
    expect(all.status).toBe(200);
    expect(all.body.organisations).toContainEqual({ org_id: a.orgId, allowed: 60, refused: 6, refused_by_reason: { QuotaExceeded: 3, AccessDenied: 3 } });
    expect(all.body.organisations.map((o: { org_id: string }) => o.org_id)).not.toContain(b.orgId);
  });

  it("the organisation's own quota: what it refused is OrgQuotaExceeded, and its allowed requests count once", async () => {
    const apiId = await makeApi(s, b.orgId, 'capped');
    expect((await s.gw('PUT', `/gw/org/keys/${b.orgId}`, { quota_max: 4, quota_renewal_rate: 3600 })).status).toBe(200);
    const { key } = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(apiId) });
    const statuses = (await Promise.all(Array.from({ length: 7 }, () => check(key, apiId)))).map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(4);
    const r = await usageOf(b.orgId);
    expect(r.body.apis.find((x: { api_id: string }) => x.api_id === apiId)).toEqual({
      api_id: apiId,
      allowed: 4,
      refused: 3,
      refused_by_reason: { OrgQuotaExceeded: 3 },
    });
  });
});

describe.skipIf(onEmulator)('a hot key', () => {
  it("its counter split into shards still counts each allowed request once: the shards' writes carry the tally", async () => {
    const apiId = await makeApi(s, a.orgId, 'hot');
    const { key } = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId), quota_max: 500, quota_renewal_rate: 3600 });
    expect((await check(key, apiId)).status).toBe(200);
    const layout = await promote(counterOf(keyHash(key), ''), { max: 500, renewalRate: 3600, rate: null }, Math.floor(Date.now() / 1000), 8);
    expect(layout.n).toBe(8);
    const statuses = (await Promise.all(Array.from({ length: 40 }, () => check(key, apiId)))).map((r) => r.status);
    expect(statuses.every((x) => x === 200)).toBe(true);
    const r = await usageOf(a.orgId);
    expect(r.body.apis.find((x: { api_id: string }) => x.api_id === apiId)).toMatchObject({ allowed: 41, refused: 0 });
  });
});

describe.skipIf(onEmulator)('the admin routes', () => {
  it('CSV: a header line, then one line per day and API (and per organisation for the installation)', async () => {
    const apiId = await makeApi(s, a.orgId, 'csv');
    const { key } = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId) });
    for (let i = 0; i < 3; i++) expect((await check(key, apiId)).status).toBe(200);
    const r = await usageOf(a.orgId, '&format=csv');
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = r.text.split('\r\n');
    expect(lines[0]).toBe(
      'day,api_id,allowed,refused,refused_KeyInactive,refused_KeyExpired,refused_OrgSuspended,refused_AccessDenied,refused_QuotaExceeded,' +
        'refused_RateLimitExceeded,refused_OrgQuotaExceeded',
    );
    expect(lines.filter((l) => l.includes(`,${apiId},`))).toEqual([expect.stringMatching(new RegExp(`^${month()}-\\d\\d,${apiId},3,0,0,0,0,0,0,0,0$`))]);
    const all = await s.admin('GET', `/admin/usage?month=${month()}&format=csv`);
    expect(all.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(all.text.split('\r\n')[0]!.startsWith('month,org_id,allowed,refused,')).toBe(true);
    expect(all.text).toContain(`${month()},${a.orgId},`);
  });

  it('a month with nothing is zeros; a malformed month is 400; an organisation that does not exist is 404', async () => {
    const empty = await s.admin('GET', `/admin/organisations/${a.orgId}/usage?month=2001-01`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ org_id: a.orgId, month: '2001-01', total: { allowed: 0, refused: 0, refused_by_reason: {} }, apis: [], days: [] });
    for (const bad of ['2026-13', '26-11', '2026-1', 'now']) {
      const r = await s.admin('GET', `/admin/usage?month=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body).toMatchObject({ Status: 'Error' });
    }
    expect((await s.admin('GET', '/admin/usage?format=xml')).status).toBe(400);
    expect((await s.admin('GET', '/admin/organisations/no-such-org/usage')).status).toBe(404);
    // Another group's credential is no admin's.
    expect((await s.dash(a.key, 'GET', '/admin/usage')).status).toBe(401);
  });
});

describe.skipIf(onEmulator)('gwctl usage', () => {
  const gwctl = async (args: string[], env: Record<string, string> = { GW_URL: s.url, GW_ADMIN_SECRET: ADMIN_SECRET }) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run(['usage', ...args], { env, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it("prints every organisation's month, one organisation per API and day, JSON and CSV as the service answers them", async () => {
    const apiId = await makeApi(s, a.orgId, 'cli');
    const { key } = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId) });
    for (let i = 0; i < 2; i++) expect((await check(key, apiId)).status).toBe(200);
    await s.caughtUp();
    const figures = (await s.admin('GET', `/admin/organisations/${a.orgId}/usage?month=${month()}`)).body;

    const all = await gwctl(['--month', month()]);
    expect(all.code, all.err).toBe(0);
    expect(all.out).toMatch(new RegExp(`^${a.orgId} +${figures.total.allowed} +${figures.total.refused}`, 'm'));
    const one = await gwctl(['--month', month(), '--org-id', a.orgId]);
    expect(one.out).toContain(`${a.orgId}, ${month()}: ${figures.total.allowed} allowed`);
    expect(one.out).toMatch(new RegExp(`^${month()}-\\d\\d +${apiId} +2 +0`, 'm'));
    expect(JSON.parse((await gwctl(['--month', month(), '--org-id', a.orgId, '--output', 'json'])).out)).toEqual(figures);
    const csv = await gwctl(['--month', month(), '--org-id', a.orgId, '--output', 'csv']);
    expect(csv.out.split('\n')[0]).toMatch(/^day,api_id,allowed,refused,/);
    expect(csv.out).toMatch(new RegExp(`,${apiId},2,0,`));
  });

  it('refuses without the admin credential, with a malformed month, and names a refusal of the service', async () => {
    expect((await gwctl([], { GW_URL: s.url })).err).toMatch(/GW_ADMIN_SECRET is not set/);
    expect((await gwctl(['--month', 'May'])).err).toMatch(/--month is YYYY-MM/);
    const wrong = await gwctl([], { GW_URL: s.url, GW_ADMIN_SECRET: 'not-it' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/usage: 401/);
    expect((await gwctl(['--org-id', 'no-such-org'])).err).toMatch(/404/);
  });
});

describe.skipIf(onEmulator)('the usage consumer counts every record once', () => {
  /** A counter write as the stream carries it: its tally went from `was` to `now`. */
  const counterRecord = (orgId: string, apiId: string, seq: number, was: number | undefined, now: number) => ({
    eventName: 'MODIFY' as const,
    dynamodb: {
      SequenceNumber: String(seq),
      NewImage: tallyImage(orgId, apiId, now),
      ...(was === undefined ? {} : { OldImage: tallyImage(orgId, apiId, was) }),
    },
  });
  const tallyImage = (orgId: string, apiId: string, n: number) => ({
    PK: { S: `KEY#replayed-${orgId}` },
    SK: { S: 'QUOTA' },
    entity: { S: 'live_quota' },
    tally_allowed: { N: String(n) },
    tally_of: { S: `${orgId}\n${apiId}\n${month()}-15` },
  });
  const deliver = (records: unknown[]) => usageConsumer({ Records: records } as never);

  it('a batch handed over again, or split another way, adds nothing twice', async () => {
    const apiId = 'replayed-api';
    const records = Array.from({ length: 6 }, (_, i) => counterRecord(b.orgId, apiId, 1000 + i, i === 0 ? undefined : i, i + 1));
    await deliver(records.slice(0, 4));
    await deliver(records.slice(0, 4));
    await deliver(records.slice(2));
    await deliver(records);
    const stored = await ddb().send(
      new QueryCommand({
        TableName: s.table,
        KeyConditionExpression: 'PK = :pk AND SK = :sk',
        ExpressionAttributeValues: { ':pk': `BILLDAY#${b.orgId}#${month()}`, ':sk': `${month()}-15#${apiId}` },
        ConsistentRead: true,
      }),
    );
    expect(stored.Items?.[0]).toMatchObject({ allowed: 6, org_id: b.orgId, api_id: apiId, day: `${month()}-15` });
  });
});
