/**
 * An installation admin reads its organisations (GET /admin/organisations, paged and searchable by
 * id and owner_name; GET /admin/organisations/{orgID} with its version as ETag), and organisations
 * an older release stored without the list are listed once by the migration every start runs.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddb } from '../../shared/store/db/client';
import { saveMissingOrganisationIndexes } from '../../shared/store/organisations';
import { uid } from '../support/fixtures';
import { useStage } from '../support/file-stage';
import { onEmulator } from '../support/stage';

const s = useStage();

type Org = { id: string; owner_name?: string; version: number };
const list = async (query: string) => {
  const r = await s.admin('GET', `/admin/organisations${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body as { pages: number; organisations: Org[]; next_cursor?: string };
};
/** Every organisation of the installation, page by page with cursors. */
async function all(query = ''): Promise<Org[]> {
  const out: Org[] = [];
  let page = await list(`?page_size=2${query}`);
  out.push(...page.organisations);
  while (page.next_cursor) {
    page = await list(`?page_size=2&cursor=${encodeURIComponent(page.next_cursor)}${query}`);
    out.push(...page.organisations);
  }
  return out;
}

describe('organisations, as the installation admin reads them', () => {
  it('lists every organisation in creation order, paged with an exact page count, and reads one with its version', async () => {
    const ids = [uid('acme'), uid('globex'), uid('initech')];
    for (const [i, id] of ids.entries()) expect((await s.admin('POST', '/admin/organisations', { id, owner_name: `Owner ${i}` })).status).toBe(200);
    const every = await all();
    expect(every.map((o) => o.id).filter((id) => ids.includes(id))).toEqual(ids);
    const first = await list('?p=1&page_size=2');
    expect(first.pages).toBe(Math.ceil(every.length / 2));
    expect(first.organisations).toHaveLength(2);

    const one = await s.admin('GET', `/admin/organisations/${ids[1]}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: ids[1], owner_name: 'Owner 1', version: 1 });
    expect(one.body).not.toHaveProperty('GSI1PK');
    expect(one.headers.get('etag')).toBe('"1"');
    const missing = await s.admin('GET', `/admin/organisations/${uid('none')}`);
    expect(missing.status).toBe(404);
  });

  it('q keeps the organisations whose id or owner_name contains it, ignoring case', async () => {
    const tag = uid('Zeta').toLowerCase();
    const byName = uid('org');
    expect((await s.admin('POST', '/admin/organisations', { id: `${tag}-one` })).status).toBe(200);
    expect((await s.admin('POST', '/admin/organisations', { id: byName, owner_name: `The ${tag.toUpperCase()} Company` })).status).toBe(200);
    expect((await s.admin('POST', '/admin/organisations', { id: uid('other'), owner_name: 'Unrelated' })).status).toBe(200);
    const found = await all(`&q=${encodeURIComponent(tag.toUpperCase())}`);
    expect(found.map((o) => o.id).sort()).toEqual([`${tag}-one`, byName].sort());
  });

  // The migration runs against this process's table; the emulated stack's functions read their own.
  it.skipIf(onEmulator)('an organisation an older release stored without the list is listed once, and counted once', async () => {
    const id = uid('legacy');
    const now = new Date().toISOString();
    await ddb().send(
      new PutCommand({
        TableName: s.table,
        Item: { PK: `ORG#${id}`, SK: 'ORG', entity: 'org', id, owner_name: 'Legacy', created_at: now, updated_at: now, version: 1 },
      }),
    );
    const before = await list('?p=1&page_size=100');
    expect((await all()).map((o) => o.id)).not.toContain(id);
    expect(await saveMissingOrganisationIndexes()).toBe(1);
    expect(await saveMissingOrganisationIndexes()).toBe(0);
    expect((await all()).map((o) => o.id)).toContain(id);
    const after = await list('?p=1&page_size=1');
    expect(after.pages).toBe(before.organisations.length + 1);
  });
});
