/**
 * API names of any length the schema allows, multibyte or not, through the local stage: the
 * create answers 200 (the name sort key used to pass DynamoDB's 1,024-byte key limit: 500), the
 * name reads back whole, and the list sorted by name pages with cursors across them (a cursor
 * holding such a key used to pass the 2,048 characters a list accepts: 400). docs/reference/limits.md.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { textSortKey } from '../../shared/store/db/storage-key';
import { useStage, useTenants } from '../support/file-stage';

type Json = Record<string, any>;
const s = useStage();
const [T] = useTenants(s, 1);
const tag = randomBytes(3).toString('hex');

const NAMES: Record<string, string> = {
  euro1000: '€'.repeat(1000),
  ascii1020: 'a'.repeat(1020),
  longest: '€'.repeat(65_536),
  clef: '𝄞'.repeat(600),
  quotes: '"\\'.repeat(3000),
  control: '\u0001\u001f'.repeat(1000),
  sharedB: `${'€'.repeat(400)}b`,
  sharedA: `${'€'.repeat(400)}a`,
  upper: `${'É'.repeat(600)}Z`,
  short: 'zz short',
  first: 'aa first',
};

const created = new Map<string, string>();

beforeAll(async () => {
  for (const [label, name] of Object.entries(NAMES)) {
    const apiId = `long-${tag}-${label}`.toLowerCase();
    const r = await s.gw('POST', '/gw/apis', { api_id: apiId, name, org_id: T.orgId, proxy: { listen_path: `/${apiId}/`, target_url: 'http://u' } });
    created.set(label, `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
});

const list = (query: string) => s.dash(T.key, 'GET', `/api/apis${query}`);

describe('POST /gw/apis with long and multibyte names', () => {
  it.each(Object.keys(NAMES))('a name of %s is created (200) and reads back whole', async (label) => {
    expect(created.get(label)).toMatch(/^200 /);
    const r = await s.gw('GET', `/gw/apis/long-${tag}-${label}`.toLowerCase());
    expect(r.status).toBe(200);
    expect(r.body.name).toBe(NAMES[label]);
  });
});

describe('GET /api/apis sorted by name pages across long multibyte names', () => {
  async function walk(query: string): Promise<Json[]> {
    const entries: Json[] = [];
    let r = await list(query);
    for (let pages = 1; ; pages++) {
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
      entries.push(...r.body.apis);
      if (!r.body.next_cursor) return entries;
      expect(r.body.next_cursor.length).toBeLessThanOrEqual(2048);
      r = await list(`${query}&cursor=${encodeURIComponent(r.body.next_cursor)}`);
      if (pages > 40) throw new Error('cursor walk does not end');
    }
  }

  /** By name (lower case, as far as the sort key keeps it) in UTF-8 byte order, ties by id. */
  function expected(entries: Json[], descending: boolean): string[] {
    const keyOf = (e: Json) => Buffer.from(textSortKey(String(e.api_definition.name).toLowerCase(), String(e.api_definition.id)));
    const sorted = [...entries].sort((x, y) => Buffer.compare(keyOf(x), keyOf(y)));
    if (descending) sorted.reverse();
    return sorted.map((e) => e.api_definition.api_id);
  }

  it.each(['name', '-name'])('walking next_cursor one API a page (sort=%s) returns every API once, in order, with no 400', async (sort) => {
    const entries = await walk(`?page_size=1&sort=${sort}`);
    const ids = entries.map((e) => e.api_definition.api_id);
    expect(ids).toHaveLength(Object.keys(NAMES).length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected(entries, sort.startsWith('-')));
    // Plain order where names differ early: "aa first" < the ASCII name < "zz short" < the multibyte ones.
    const at = (label: string) => ids.indexOf(`long-${tag}-${label}`.toLowerCase());
    const ascending = sort === 'name' ? 1 : -1;
    expect(Math.sign(at('ascii1020') - at('first'))).toBe(ascending);
    expect(Math.sign(at('short') - at('ascii1020'))).toBe(ascending);
    expect(Math.sign(at('euro1000') - at('short'))).toBe(ascending);
  });
});
