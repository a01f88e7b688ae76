/**
 * GET /api/apis through the local stage (contract §5 and §7): pages, six sort orders,
 * cursors, organisation isolation, and a page count that stays exact under concurrent writes.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStage, useTenants } from '../support/file-stage';

type Json = Record<string, any>;
const GW = 'x-gw-api-gateway';
const ENTRY_MEMBERS = [
  'api_definition',
  'api_model',
  'categories',
  'created_at',
  'updated_at',
  'hook_references',
  'is_site',
  'sort_by',
  'user_group_owners',
  'user_owners',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const s = useStage();
const [A, B] = useTenants(s, 2);
/** api_ids of org A in creation order, and their names. */
const aIds: string[] = [];
const names = new Map<string, string>();
const oasIds = new Set<string>();
const bIds: string[] = [];
/** api_ids of A updated after creation, in update order. */
const updated: string[] = [];

const tag = randomBytes(3).toString('hex');
/** Name order differs from creation order, and mixes case (the order ignores case). */
const WORDS = [
  'kiwi',
  'Apple',
  'mango',
  'banana',
  'Zucchini',
  'cherry',
  'date',
  'Elder',
  'fig',
  'grape',
  'Hazel',
  'iris',
  'jack',
  'lemon',
  'Nectar',
  'olive',
  'papaya',
  'quince',
  'Rhubarb',
  'sage',
  'thyme',
  'Ugli',
  'vanilla',
  'walnut',
  'yam',
];

function oasBody(id: string, name: string, orgId: string): Json {
  return {
    openapi: '3.0.3',
    info: { title: name, version: '1' },
    paths: { [`/${id}`]: {} },
    [GW]: { info: { id, name, orgId, state: { active: true } }, server: { listenPath: { value: `/${id}/` } }, upstream: { url: 'http://u' } },
  };
}

async function createApi(kind: 'oas' | 'classic', id: string, name: string, orgId: string) {
  const r =
    kind === 'oas'
      ? await s.gw('POST', '/gw/apis/oas', oasBody(id, name, orgId))
      : await s.gw('POST', '/gw/apis', { api_id: id, name, org_id: orgId, proxy: { listen_path: `/${id}/`, target_url: 'http://u' } });
  if (r.status !== 200) throw new Error(`create ${id}: ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * Returns once the clock reads a later millisecond than when the last write was answered (at most
 * 1 ms on): the stage stamped that write before answering, so the next one gets a later stamp, and
 * the expected orders are exact. The stage shares this machine's clock, the emulated one too.
 */
function nextMillisecond(): void {
  const answered = Date.now();
  while (Date.now() === answered) {
    // The condition is the clock itself; no timer can wait less than a millisecond.
  }
}

const list = (key: string, query = '') => s.dash(key, 'GET', `/api/apis${query}`);
const idsOf = (body: Json): string[] => body.apis.map((e: Json) => e.api_definition.api_id);

beforeAll(async () => {
  // Sequential, so creation order is known.
  for (let i = 0; i < 25; i++) {
    const id = `a-${tag}-${String(i).padStart(2, '0')}`;
    const kind = i % 3 === 0 ? 'classic' : 'oas';
    await createApi(kind, id, WORDS[i]!, A.orgId);
    nextMillisecond();
    aIds.push(id);
    names.set(id, WORDS[i]!);
    if (kind === 'oas') oasIds.add(id);
  }
  for (let i = 0; i < 5; i++) {
    const id = `b-${tag}-${i}`;
    await createApi('oas', id, `b api ${i}`, B.orgId);
    bIds.push(id);
  }
  // Touch a few of A's OAS APIs, oldest-created last, so updated_at order differs from created_at order.
  for (const id of [aIds[20]!, aIds[4]!, aIds[11]!]) {
    const r = await s.gw('PUT', `/gw/apis/oas/${id}`, oasBody(id, names.get(id)!, A.orgId));
    if (r.status !== 200) throw new Error(`update ${id}: ${r.status}`);
    nextMillisecond();
    updated.push(id);
  }
});

/** Every entry of A with p=-1 (checked for size in its own test). */
async function allOf(key: string, sort?: string): Promise<Json[]> {
  const r = await list(key, `?p=-1${sort ? `&sort=${encodeURIComponent(sort)}` : ''}`);
  expect(r.status).toBe(200);
  return r.body.apis;
}

/** The expected order of A's APIs for a sort, from the stored timestamps, ties broken by id. */
function expectedOrder(entries: Json[], sort: string): string[] {
  const field = sort.replace(/^-/, '');
  const keyOf = (e: Json) => (field === 'name' ? String(e.api_definition.name).toLowerCase() : String(e[field]));
  const sorted = [...entries].sort((x, y) => {
    const a = keyOf(x);
    const b = keyOf(y);
    if (a !== b) return a < b ? -1 : 1;
    return x.api_definition.id < y.api_definition.id ? -1 : 1;
  });
  if (sort.startsWith('-')) sorted.reverse();
  return sorted.map((e) => e.api_definition.api_id);
}

describe('GET /api/apis: shape and pages', () => {
  it('answers the listing entries of the spec, OAS entries with their document, classic ones without', async () => {
    const r = await list(A.key, '?p=-1');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['apis', 'pages']);
    expect(r.body.pages).toBe(1);
    expect(r.body.apis).toHaveLength(25);
    for (const e of r.body.apis as Json[]) {
      const id = e.api_definition.api_id;
      expect(e).toMatchObject({
        api_definition: { api_id: id, org_id: A.orgId, name: names.get(id), id: expect.stringMatching(/^[0-9a-f]{24}$/), is_oas: oasIds.has(id) },
        api_model: {},
        categories: [],
        hook_references: [],
        is_site: false,
        sort_by: 0,
        user_owners: [],
        user_group_owners: [],
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      expect(e.updated_at >= e.created_at).toBe(true);
      // Exactly the members of the spec's "API listing entry" (oas only for OAS APIs).
      expect(Object.keys(e).sort()).toEqual([...ENTRY_MEMBERS, ...(oasIds.has(id) ? ['oas'] : [])].sort());
      if (oasIds.has(id)) {
        expect(e.oas[GW].info).toMatchObject({ id, orgId: A.orgId, dbId: e.api_definition.id });
        expect(e.oas.paths).toEqual({ [`/${id}`]: {} });
        expect(e.api_definition.proxy.listen_path).toBe(`/${id}/`);
      } else {
        expect(e.oas).toBeUndefined();
      }
    }
    const touched = r.body.apis.filter((e: Json) => updated.includes(e.api_definition.api_id));
    for (const e of touched) expect(e.updated_at > e.created_at).toBe(true);
  });

  it('pages by 10 by default: pages 3, sizes 10/10/5, then empty pages', async () => {
    const sizes: number[] = [];
    const seen: string[] = [];
    for (const p of [1, 2, 3, 4]) {
      const r = await list(A.key, `?p=${p}`);
      expect(r.status).toBe(200);
      expect(r.body.pages).toBe(3);
      sizes.push(r.body.apis.length);
      seen.push(...idsOf(r.body));
    }
    expect(sizes).toEqual([10, 10, 5, 0]);
    expect(new Set(seen).size).toBe(25);
    expect(idsOf((await list(A.key)).body)).toEqual(seen.slice(0, 10));
    expect(idsOf((await list(A.key, '?p=0')).body)).toEqual(seen.slice(0, 10));
  });

  it('takes page_size 1..100 and counts pages from it; other sizes are 400', async () => {
    for (const [size, pages, last] of [
      [7, 4, 4],
      [25, 1, 25],
      [100, 1, 25],
      [1, 25, 1],
      [24, 2, 1],
    ] as const) {
      const r = await list(A.key, `?page_size=${size}&p=${pages}`);
      expect(r.status).toBe(200);
      expect(r.body.pages).toBe(pages);
      expect(r.body.apis).toHaveLength(last);
    }
    for (const bad of ['0', '101', '-3', 'ten']) {
      const r = await list(A.key, `?page_size=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ Status: 'Error', Meta: { errors: [expect.objectContaining({ path: 'query.page_size' })] } });
    }
  });

  it('returns every API with p below 0, as one page', async () => {
    for (const p of ['-1', '-5']) {
      const r = await list(A.key, `?p=${p}`);
      expect(r.status).toBe(200);
      expect(r.body.pages).toBe(1);
      expect(new Set(idsOf(r.body))).toEqual(new Set(aIds));
      expect(r.body.apis).toHaveLength(25);
      expect(r.body.next_cursor).toBeUndefined();
    }
  });
});

describe('GET /api/apis: sort orders', () => {
  const SORTS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at'];

  it('defaults to -created_at: newest first', async () => {
    const all = await allOf(A.key);
    expect(idsOf({ apis: all })).toEqual(expectedOrder(all, '-created_at'));
    // Created one after another, so (timestamp ties aside) newest first is creation order reversed.
    const created = all.map((e) => e.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(idsOf({ apis: all })[0]).toBe(aIds[24]);
    expect(idsOf({ apis: all })[24]).toBe(aIds[0]);
  });

  it.each(SORTS)('sort=%s orders every page correctly', async (sort) => {
    const all = await allOf(A.key, sort);
    const expected = expectedOrder(all, sort);
    expect(idsOf({ apis: all })).toEqual(expected);
    // The same order, page by page.
    const paged: string[] = [];
    for (const p of [1, 2, 3]) {
      const r = await list(A.key, `?sort=${encodeURIComponent(sort)}&p=${p}`);
      expect(r.status).toBe(200);
      expect(r.body.pages).toBe(3);
      paged.push(...idsOf(r.body));
    }
    expect(paged).toEqual(expected);
  });

  it('orders by name ignoring case, and by updated_at with the touched APIs last', async () => {
    const byName = idsOf({ apis: await allOf(A.key, 'name') }).map((id) => names.get(id));
    expect(byName).toEqual([...WORDS].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
    expect(idsOf({ apis: await allOf(A.key, '-name') }).map((id) => names.get(id))).toEqual([...byName].reverse());
    const byUpdate = idsOf({ apis: await allOf(A.key, 'updated_at') });
    expect(byUpdate.slice(-3)).toEqual(updated);
    expect(idsOf({ apis: await allOf(A.key, '-updated_at') }).slice(0, 3)).toEqual([...updated].reverse());
    const byCreate = idsOf({ apis: await allOf(A.key, 'created_at') });
    expect(byCreate).toEqual(aIds);
  });

  it('answers 400 for any other sort value', async () => {
    for (const bad of ['api_id', 'NAME', '--name', '+name', '']) {
      const r = await list(A.key, `?sort=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ Status: 'Error', Meta: { errors: [expect.objectContaining({ path: 'query.sort' })] } });
    }
  });
});

describe('GET /api/apis: cursors', () => {
  async function walk(key: string, query: string): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let r = await list(key, query);
    let pages = 1;
    expect(r.status).toBe(200);
    ids.push(...idsOf(r.body));
    while (r.body.next_cursor) {
      expect(typeof r.body.next_cursor).toBe('string');
      r = await list(key, `${query}&cursor=${encodeURIComponent(r.body.next_cursor)}`);
      expect(r.status).toBe(200);
      ids.push(...idsOf(r.body));
      if (++pages > 50) throw new Error('cursor walk does not end');
    }
    return { ids, pages };
  }

  it.each(['-created_at', 'name', 'updated_at'])('walking next_cursor (sort=%s) returns every API once, in order', async (sort) => {
    const { ids, pages } = await walk(A.key, `?page_size=4&sort=${sort}`);
    expect(pages).toBe(7);
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
    expect(ids).toEqual(expectedOrder(await allOf(A.key, sort), sort));
  });

  it('gives no next_cursor on the last page, and the cursor continues from a numbered page', async () => {
    const last = await list(A.key, '?p=3');
    expect(last.body.apis).toHaveLength(5);
    expect(last.body.next_cursor).toBeUndefined();
    const p1 = await list(A.key, '?p=1');
    const p2 = await list(A.key, '?p=2');
    const next = await list(A.key, `?cursor=${encodeURIComponent(p1.body.next_cursor)}`);
    expect(idsOf(next.body)).toEqual(idsOf(p2.body));
    // An exact fit: 25 by 25 has nothing after it.
    expect((await list(A.key, '?page_size=25')).body.next_cursor).toBeUndefined();
  });

  it("refuses another organisation's cursor, another sort's cursor and a forged one (400, nothing leaked)", async () => {
    const bPage = await list(B.key, '?page_size=2');
    expect(bPage.body.next_cursor).toEqual(expect.any(String));
    const foreign = await list(A.key, `?page_size=2&cursor=${encodeURIComponent(bPage.body.next_cursor)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ Status: 'Error', Meta: { errors: [expect.objectContaining({ path: 'query.cursor' })] } });

    const byCreated = await list(A.key, '?page_size=2');
    const crossSort = await list(A.key, `?sort=name&cursor=${encodeURIComponent(byCreated.body.next_cursor)}`);
    expect(crossSort.status).toBe(400);

    for (const forged of ['not-a-cursor', Buffer.from('{"p":"x","k":{}}').toString('base64url'), '%00']) {
      const r = await list(A.key, `?cursor=${encodeURIComponent(forged)}`);
      expect(r.status).toBe(400);
    }
  });
});

describe('GET /api/apis: organisations', () => {
  it("shows each caller only its organisation's APIs", async () => {
    const a = await allOf(A.key);
    const b = await allOf(B.key);
    expect(new Set(idsOf({ apis: a }))).toEqual(new Set(aIds));
    expect(new Set(idsOf({ apis: b }))).toEqual(new Set(bIds));
    expect(b.every((e) => e.api_definition.org_id === B.orgId)).toBe(true);
    const bPage = await list(B.key);
    expect(bPage.body.pages).toBe(1);
    expect(bPage.body.apis).toHaveLength(5);
    for (const sort of ['name', '-updated_at']) expect(new Set(idsOf({ apis: await allOf(B.key, sort) }))).toEqual(new Set(bIds));
  });

  it('needs a dashboard credential', async () => {
    expect((await s.call('GET', '/api/apis')).status).toBe(401);
    expect((await s.dash('no-such-key', 'GET', '/api/apis')).status).toBe(401);
  });
});

describe('GET /api/apis: exact page count under concurrent writes', () => {
  it('stays exact after 20 concurrent creates and 5 concurrent deletes', async () => {
    const C = await s.tenant();
    const ids = Array.from({ length: 20 }, (_, i) => `c-${tag}-${i}`);
    const created = await Promise.all(ids.map((id, i) => createApi(i % 2 ? 'oas' : 'classic', id, `c ${i}`, C.orgId).then(() => id)));
    expect(created).toEqual(ids);
    expect((await list(C.key)).body.pages).toBe(2);
    expect((await list(C.key, '?page_size=7')).body.pages).toBe(3);

    const gone = [ids[0]!, ids[3]!, ids[8]!, ids[13]!, ids[19]!];
    const deleted = await Promise.all(gone.map((id) => s.gw('DELETE', `/gw/apis/${id}`)));
    expect(deleted.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const remaining = ids.filter((id) => !gone.includes(id));

    const page1 = await list(C.key);
    expect(page1.body.pages).toBe(2);
    expect(page1.body.apis).toHaveLength(10);
    const page2 = await list(C.key, '?p=2');
    expect(page2.body.apis).toHaveLength(5);
    expect((await list(C.key, '?page_size=5')).body.pages).toBe(3);
    expect((await list(C.key, '?page_size=4')).body.pages).toBe(4);
    expect(new Set([...idsOf(page1.body), ...idsOf(page2.body)])).toEqual(new Set(remaining));
    const all = await allOf(C.key);
    expect(idsOf({ apis: all }).sort()).toEqual([...remaining].sort());
  });

  it('counts a race for one api_id once: one create wins, the rest are 409', async () => {
    const D = await s.tenant();
    const id = `race-${tag}`;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => s.gw('POST', '/gw/apis/oas', oasBody(id, `racer ${i}`, D.orgId))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const l = await list(D.key, '?page_size=1');
    expect(l.body.pages).toBe(1);
    expect(idsOf(l.body)).toEqual([id]);
    // Deleting twice concurrently removes it once; the count does not go below zero.
    const dels = await Promise.all([s.gw('DELETE', `/gw/apis/${id}`), s.gw('DELETE', `/gw/apis/${id}`)]);
    // Without If-Match the loser finds the API gone (404), not a 412 for a header it never sent.
    expect(dels.map((r) => r.status).sort()).toEqual([200, 404]);
    const after = await list(D.key);
    expect(after.body).toMatchObject({ apis: [], pages: 0 });
    await createApi('oas', `after-${tag}`, 'after', D.orgId);
    expect((await list(D.key, '?page_size=1')).body.pages).toBe(1);
  });
});
