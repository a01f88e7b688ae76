/**
 * List cursors (docs/reference/lists.md): sealed by this service and bound to their list. A cursor that
 * this service did not issue for this very list (forged, altered, another organisation's,
 * another list's, or the unsigned form with storage key members of the caller's choosing) is 400
 * in the dashboard envelope before storage sees it, never a 500 and never a page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { userKeys } from '../../shared/store/users';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [A, B] = useTenants(s, 2);
beforeAll(async () => {
  for (const t of [A, B]) {
    for (const n of ['second', 'third']) {
      const r = await s.admin('POST', '/admin/users', { org_id: t.orgId, email_address: `${n}@${t.orgId}.example` });
      expect(r.status).toBe(200);
    }
  }
});

const users = (key: string, query: string) => s.dash(key, 'GET', `/api/users?${query}`);
const ids = (body: { users: Array<{ id: string }> }) => body.users.map((u) => u.id);
/** The unsigned form cursors used to have: base64url JSON of the list's partition and a start key. */
const unsigned = (p: string, k: Record<string, string>) => Buffer.from(JSON.stringify({ p, k })).toString('base64url');

function expectRefused(r: { status: number; body: any }, what: string) {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(400);
  expect(r.body, what).toMatchObject({ Status: 'Error', Meta: { errors: [expect.objectContaining({ path: 'query.cursor' })] } });
}

describe('cursors', () => {
  it('continue their own list and name no storage attribute', async () => {
    const all = ids((await users(A.key, 'p=-1')).body);
    expect(all).toHaveLength(3);
    const first = await users(A.key, 'page_size=1');
    const cursor = first.body.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toMatch(/GSI|"PK"|"SK"|USER#|ORG#/);
    // The cursor is sealed: its bytes are not a readable key (matching the base64 text itself
    // against words would fail by chance about once in 500 runs).
    expect(() => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).toThrow();
    const second = await users(A.key, `page_size=1&cursor=${encodeURIComponent(cursor)}`);
    expect(second.status).toBe(200);
    expect(ids(second.body)).toEqual([all[1]]);
  });

  it("refuse another organisation's cursor, another list's, and an altered one", async () => {
    const bCursor = (await users(B.key, 'page_size=1')).body.next_cursor as string;
    expectRefused(await users(A.key, `cursor=${encodeURIComponent(bCursor)}`), "B's cursor on A's list");
    const searchCursor = (await s.dash(A.key, 'GET', '/api/users/search?q=example&page_size=1')).body.next_cursor as string;
    expect(searchCursor).toEqual(expect.any(String));
    expectRefused(await users(A.key, `cursor=${encodeURIComponent(searchCursor)}`), 'a search cursor on the list');
    const own = (await users(A.key, 'page_size=1')).body.next_cursor as string;
    const last = own.at(-2) === 'A' ? 'B' : 'A';
    expectRefused(await users(A.key, `cursor=${encodeURIComponent(own.slice(0, -2) + last + own.slice(-1))}`), 'altered cursor');
  });

  it('refuse forged cursors of the caller’s own partition, whatever key members they name (no 500, no page)', async () => {
    const partition = userKeys.ofOrg(A.orgId);
    const forged: Array<[string, string]> = [
      ['consistent start key', unsigned(partition, { PK: 'USER#x', SK: 'USER', GSI1PK: partition, GSI1SK: '0' })],
      ["another partition's index key", unsigned(partition, { PK: 'USER#x', SK: 'USER', GSI1PK: userKeys.ofOrg(B.orgId), GSI1SK: '0' })],
      ['table keys of another item kind', unsigned(partition, { PK: `ORG#${A.orgId}`, SK: 'ORG', GSI1PK: partition, GSI1SK: '' })],
      ['empty key values', unsigned(partition, { PK: '', SK: '', GSI1PK: '', GSI1SK: '' })],
      ['garbage', 'not-a-cursor'],
      ['three dots', 'a.b.c.d'],
    ];
    for (const [what, cursor] of forged) expectRefused(await users(A.key, `page_size=1&cursor=${encodeURIComponent(cursor)}`), what);
  });
});
