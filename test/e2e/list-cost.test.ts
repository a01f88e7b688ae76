/**
 * What one list request costs the table (contract §5, docs/reference/lists.md and "Limits"): a page reads
 * its page, not the data behind it, whatever page_size, p or cursor ask, and `pages` of the
 * organisation's policies comes from a count every policy write moves in its own transaction.
 *
 * The tenant holds policies of about 300 KB each, as the review's did (81 of 370 KB): the storage
 * read of each request is measured as DynamoDB reports it (the read capacity each command
 * consumed, asked for while recording), never by time. In-process stage only: the emulated stage
 * sends its commands from other processes, which this recorder cannot see.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits';
import { saveMissingPolicyCounts } from '../../shared/store/policy-counts';
import { makeApi, rightsFor, uid } from '../support/fixtures';
import { commandRecorder, type Read } from '../support/sent-commands';
import { onEmulator } from '../support/stage';
import { useStage } from '../support/file-stage';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../shared/store/db/client';

const s = useStage();
const recorded = commandRecorder();

/** About 300 KB of members a policy keeps as they are (unknown members are stored and answered). */
const padding = () => Array.from({ length: 5 }, (_, i) => `${i}`.repeat(60_000));
const BIG = 24;
/** What an eventually consistent read unit stands for. */
const UNIT = 8192;

/** Bytes of stored items the commands read, as DynamoDB counts them. */
const readBytes = (reads: Read[]) => reads.reduce((n, r) => n + r.units * UNIT, 0);
const queries = <C extends { command: string }>(commands: C[]) => commands.filter((c) => c.command === 'QueryCommand');

describe.skipIf(onEmulator)('a list request reads its page, not the tenant', () => {
  let big: { orgId: string; key: string };
  let ids: string[] = [];

  beforeAll(async () => {
    big = await s.tenant(uid('big'));
    const made = await Promise.all(
      Array.from({ length: BIG }, (_, i) => s.gw('POST', '/gw/policies', { id: uid(`p${i}`), name: `P${i}`, org_id: big.orgId, padding: padding() })),
    );
    expect(made.map((r) => r.status)).toEqual(made.map(() => 200));
    ids = made.map((r) => r.body.key as string);
  }, 120_000);

  it(`page_size=1 of ${BIG} policies of 300 KB: one Query of two items and the count, Pages exact`, async () => {
    const { result: r, commands, reads } = await recorded(() => s.dash(big.key, 'GET', '/api/portal/policies?page_size=1'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Pages: BIG, Data: [expect.objectContaining({ name: expect.any(String) })], next_cursor: expect.any(String) });
    // The page (and the item that says a next one exists), never a count over the tenant's 7 MB.
    expect(queries(commands)).toHaveLength(1);
    expect(readBytes(queries(reads))).toBeLessThan(2 * 310_000);
    expect(commands.find((c) => c.key === `ORG#${big.orgId}|COUNT#POLICY`)?.command).toBe('GetItemCommand');
  });

  it('page_size=100 ends early at the read budget, with a cursor; the cursors walk every policy once, Pages exact throughout', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const path = `/api/portal/policies?page_size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const { result: r, reads } = await recorded(() => s.dash(big.key, 'GET', path));
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      expect(r.body.Pages).toBe(1);
      expect(readBytes(reads)).toBeLessThanOrEqual(LIMITS.listReadBytes);
      seen.push(...r.body.Data.map((p: { id: string }) => p.id));
      cursor = r.body.next_cursor;
      calls++;
    } while (cursor);
    expect(calls).toBeGreaterThan(1);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('a page number skips within the budget, and one too deep is 400 asking for the cursor, having read no more than the budget', async () => {
    const second = await recorded(() => s.dash(big.key, 'GET', '/api/portal/policies?page_size=3&p=2'));
    expect(second.result.status).toBe(200);
    expect(second.result.body).toMatchObject({ Pages: BIG / 3 });
    expect(second.result.body.Data).toHaveLength(3);
    expect(readBytes(second.reads)).toBeLessThan(7 * 310_000);
    const deep = await recorded(() => s.dash(big.key, 'GET', `/api/portal/policies?page_size=1&p=${BIG}`));
    expect(deep.result.status).toBe(400);
    expect(deep.result.body).toMatchObject({ Message: expect.stringMatching(/page 24 lies deeper than a page number may reach.*follow next_cursor/) });
    expect(readBytes(deep.reads)).toBeLessThanOrEqual(LIMITS.listReadBytes);
  });

  it('every policy at once (p=-1) of a tenant larger than one request may read is 400, having read no more than that', async () => {
    const all = await recorded(() => s.dash(big.key, 'GET', '/api/portal/policies?p=-1'));
    expect(all.result.status).toBe(400);
    expect(all.result.body.Message).toMatch(/larger than one request may read.*ask for it in pages/);
    expect(readBytes(all.reads)).toBeLessThanOrEqual(LIMITS.listReadBytes);
  });
});

/** The policies of the organisation as the list shows them, every page followed; and Pages at page_size 1 and 3. */
async function listed(t: { key: string }) {
  const all = await s.dash(t.key, 'GET', '/api/portal/policies?p=-1');
  expect(all.status).toBe(200);
  const one = await recorded(() => s.dash(t.key, 'GET', '/api/portal/policies?page_size=1'));
  const three = await s.dash(t.key, 'GET', '/api/portal/policies?page_size=3');
  return {
    ids: all.body.Data.map((p: { id: string }) => p.id).sort(),
    pages1: one.result.body.Pages,
    pages3: three.body.Pages,
    queries: queries(one.commands).length,
  };
}

describe.skipIf(onEmulator)('Pages of policies: the count moves with every write, under concurrency', () => {
  it('after concurrent creates, deletes, moves between organisations and imports over each other, Pages is exact in each', async () => {
    const a = await s.tenant(uid('cnt-a'));
    const b = await s.tenant(uid('cnt-b'));
    const apiA = await makeApi(s, a.orgId);
    const pre = Array.from({ length: 12 }, (_, i) => uid(`pre${i}`));
    for (const id of pre) expect((await s.gw('POST', '/gw/policies', { id, name: id, org_id: a.orgId })).status).toBe(200);
    // Every write at once; several name the same policy, so they race each other.
    const contested = pre.slice(8);
    const writes = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => s.gw('POST', '/gw/policies', { id: uid(`gw${i}`), name: 'n', org_id: a.orgId })),
      ...Array.from({ length: 4 }, () => s.dash(a.key, 'POST', '/api/portal/policies', { name: 'dash', access_rights: rightsFor(apiA) })),
      ...pre.slice(0, 3).map((id) => s.gw('DELETE', `/gw/policies/${id}`)),
      ...pre.slice(3, 5).map((id) => s.dash(a.key, 'DELETE', `/api/portal/policies/${id}`)),
      ...pre.slice(5, 8).map((id) => s.gw('PUT', `/gw/policies/${id}`, { id, name: id, org_id: b.orgId })),
      ...contested.map((id) => s.gw('PUT', `/gw/policies/${id}`, { id, name: id, org_id: b.orgId })),
      ...contested.map((id) => s.gw('DELETE', `/gw/policies/${id}`)),
      s.admin('POST', '/admin/policies/import', { Data: contested.map((id) => ({ id, name: id, org_id: a.orgId })) }),
      s.admin('POST', '/admin/policies/import', {
        Data: [...contested.map((id) => ({ id, name: id })), ...Array.from({ length: 3 }, (_, i) => ({ id: uid(`imp${i}`), name: 'i', org_id: b.orgId }))],
      }),
    ]);
    // A delete that lost to a delete or came after one is 404; every other write went through.
    expect(writes.filter((r) => r.status !== 200 && r.status !== 404).map((r) => r.text)).toEqual([]);
    for (const t of [a, b]) {
      const got = await listed(t);
      expect(got.pages1, t.orgId).toBe(got.ids.length);
      expect(got.pages3, t.orgId).toBe(Math.ceil(got.ids.length / 3));
      expect(got.queries, 'the page alone, no count Query').toBe(1);
    }
    expect((await listed(a)).ids.length).toBeGreaterThan(10);
    expect((await listed(b)).ids.length).toBeGreaterThan(4);
  });
});

describe.skipIf(onEmulator)('policies stored before policy counts were kept', () => {
  /** An organisation and its policies as the release without policy counts stored them. */
  async function legacy(n: number) {
    const t = await s.tenant(uid('old'));
    // That release made no count: the organisation's is gone, and its policies name none.
    await ddb().send(new PutCommand({ TableName: s.table, Item: { PK: `ORG#${t.orgId}`, SK: 'COUNT#POLICY', entity: 'counter', n: 0 } }));
    const ids = Array.from({ length: n }, (_, i) => uid(`old${i}`));
    const at = Date.parse('2026-01-01T00:00:00Z');
    for (const [i, id] of ids.entries()) {
      const created = new Date(at + i * 1000).toISOString();
      await ddb().send(
        new PutCommand({
          TableName: s.table,
          Item: {
            PK: `POLICY#${id}`,
            SK: 'POLICY',
            entity: 'policy',
            id,
            name: id,
            org_id: t.orgId,
            _id: `${'0'.repeat(22)}${String(i).padStart(2, '0')}`,
            date_created: created,
            last_updated: created,
            version: 1,
            GSI1PK: `ORG#${t.orgId}#POLICIES`,
            GSI1SK: `${created}#${id}`,
          },
        }),
      );
    }
    return { ...t, ids };
  }

  it('Pages is the pages seen until they are counted, never a wrong count; counting makes it exact, writes running meanwhile included', async () => {
    const t = await legacy(7);
    const before = await s.dash(t.key, 'GET', '/api/portal/policies?page_size=2');
    // Not counted yet: this page and the next, not a count that leaves out the old policies.
    expect(before.body).toMatchObject({ Pages: 2, next_cursor: expect.any(String) });
    expect((await s.dash(t.key, 'GET', '/api/portal/policies?page_size=2&p=4')).body).toMatchObject({ Pages: 4 });
    // A new policy written meanwhile is counted; the old ones are written over, deleted and moved while the count runs.
    expect((await s.gw('POST', '/gw/policies', { id: uid('new'), name: 'new', org_id: t.orgId })).status).toBe(200);
    const other = await s.tenant(uid('old-to'));
    const [counted, ...writes] = await Promise.all([
      saveMissingPolicyCounts(),
      s.dash(t.key, 'PUT', `/api/portal/policies/${t.ids[0]}`, { id: t.ids[0], name: 'renamed' }),
      s.gw('DELETE', `/gw/policies/${t.ids[1]}`),
      s.gw('PUT', `/gw/policies/${t.ids[2]}`, { id: t.ids[2], name: 'moved', org_id: other.orgId }),
      s.admin('POST', '/admin/policies/import', { Data: [{ id: t.ids[3], name: 'imported', org_id: t.orgId }] }),
    ]);
    expect(writes.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(counted.organisations).toBeGreaterThanOrEqual(1);
    // 7 old - 1 deleted - 1 moved + 1 new.
    const after = await listed(t);
    expect(after.ids).toHaveLength(6);
    expect([after.pages1, after.pages3]).toEqual([6, 2]);
    expect((await listed(other)).pages1).toBe(1);
    // Counting again changes nothing.
    await saveMissingPolicyCounts();
    expect((await listed(t)).pages1).toBe(6);
    // The count a policy is held in is never shown.
    const got = await s.gw('GET', `/gw/policies/${t.ids[4]}`);
    expect(got.body.counted_in).toBeUndefined();
    // Nor can a client name one: a policy that names another organisation's count takes nothing off it.
    const forged = uid('forged');
    expect((await s.gw('POST', '/gw/policies', { id: forged, name: 'f', counted_in: other.orgId })).status).toBe(200);
    expect((await s.gw('DELETE', `/gw/policies/${forged}`)).status).toBe(200);
    expect((await listed(other)).pages1).toBe(1);
  });
});
