import { beforeAll, describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { loadHookForDelivery } from '../../shared/store/hooks';
import { HEADER_VALUE_MASK } from '../../shared/schemas/webhook-headers';

const s = useStage();
let a: { orgId: string; key: string };
let b: { orgId: string; key: string };
beforeAll(async () => {
  a = await s.tenant('hooks-a');
  b = await s.tenant('hooks-b');
});

const valid = { name: 'Alerts', method: 'POST', target_path: 'https://hooks.example/alert', header_map: { 'X-Token': 'abc' } };
/** Header values are write-only: reads show each as the mask. */
const masked = (m: Record<string, string>) => Object.fromEntries(Object.keys(m).map((k) => [k, HEADER_VALUE_MASK]));
/** What the delivery will send: the stored header map. */
const storedHeaders = async (orgId: string, id: string) => (await loadHookForDelivery(orgId, id))?.hook.header_map;

describe('webhooks', () => {
  it('rejects a missing or invalid method and a missing or relative target_path with 400, storing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ target_path: 'https://x.example/' }, 'body.method'],
      [{ method: 'FETCH', target_path: 'https://x.example/' }, 'body.method'],
      [{ method: 'get', target_path: 'https://x.example/' }, 'body.method'],
      [{ method: 'GET' }, 'body.target_path'],
      [{ method: 'GET', target_path: '/relative/path' }, 'body.target_path'],
      [{ method: 'GET', target_path: 'ftp://x.example/' }, 'body.target_path'],
      [{ method: 'GET', target_path: 'https://x.example/', header_map: { 'X-A': 1 } }, 'body.header_map.X-A'],
      [{ method: 'GET', target_path: 'https://x.example/', header_map: { 'X-A': 'a\r\nX-Injected: 1' } }, 'body.header_map.X-A'],
    ];
    const fresh = await s.tenant();
    for (const [body, path] of cases) {
      const r = await s.dash(fresh.key, 'POST', '/api/hooks', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ Status: 'Error' });
      expect(
        r.body.Meta.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const list = await s.dash(fresh.key, 'GET', '/api/hooks');
    expect(list.body).toMatchObject({ hooks: [], pages: 0 });
  });

  it('refuses headers the delivery owns, control characters, case twins, too many headers and internal targets: 400 at the field, nothing stored', async () => {
    const eightK = 'v'.repeat(8192);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ header_map: { 'X-A': 'a\u0000b' } }, 'body.header_map.X-A'],
      [{ header_map: { 'X-A': 'bell\u0007' } }, 'body.header_map.X-A'],
      [{ header_map: { 'X-A': 'line\nbreak' } }, 'body.header_map.X-A'],
      [{ header_map: { 'Content-Length': '0' } }, 'body.header_map.Content-Length'],
      [{ header_map: { 'transfer-encoding': 'chunked' } }, 'body.header_map.transfer-encoding'],
      [{ header_map: { Host: 'internal.example' } }, 'body.header_map.Host'],
      [{ header_map: { Connection: 'close' } }, 'body.header_map.Connection'],
      [{ header_map: { 'Proxy-Authorization': 'Basic eA==' } }, 'body.header_map.Proxy-Authorization'],
      [{ header_map: { 'X-Token': 'a', 'x-token': 'b' } }, 'body.header_map.x-token'],
      [{ header_map: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`x-h${i}`, 'v'])) }, 'body.header_map'],
      [{ header_map: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`x-h${i}`, eightK])) }, 'body.header_map'],
      [{ target_path: 'http://169.254.169.254/latest/meta-data/' }, 'body.target_path'],
      [{ target_path: 'http://127.0.0.1:8080/hook' }, 'body.target_path'],
      [{ target_path: 'http://[::1]/hook' }, 'body.target_path'],
      [{ target_path: 'http://localhost/hook' }, 'body.target_path'],
      [{ target_path: 'http://10.0.0.5/hook' }, 'body.target_path'],
    ];
    const fresh = await s.tenant();
    const kept = (await s.dash(fresh.key, 'POST', '/api/hooks', valid)).body.Meta as string;
    for (const [change, path] of cases) {
      const body = { ...valid, ...change };
      for (const [method, url] of [
        ['POST', '/api/hooks'],
        ['PUT', `/api/hooks/${kept}`],
      ] as const) {
        const r = await s.dash(fresh.key, method, url, body);
        const what = `${method} ${JSON.stringify(change).slice(0, 80)}`;
        expect(r.status, what).toBe(400);
        expect(r.body, what).toMatchObject({ Status: 'Error', Meta: { errors: expect.any(Array) } });
        expect(
          r.body.Meta.errors.map((e: { path: string }) => e.path),
          what,
        ).toContain(path);
      }
    }
    const list = await s.dash(fresh.key, 'GET', '/api/hooks?p=-1');
    expect(list.body.hooks).toHaveLength(1);
    expect(list.body.hooks[0]).toMatchObject({ id: kept, version: 1, header_map: masked(valid.header_map), target_path: valid.target_path });
    expect(await storedHeaders(fresh.orgId, kept)).toEqual(valid.header_map);
  });

  it('stores a hook at the header limits: 50 headers, 16,384 characters in all', async () => {
    const headers = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-H${String(i).padStart(2, '0')}`, '']));
    const names = Object.keys(headers).join('').length;
    const each = Math.floor((16_384 - names) / 50);
    for (const n of Object.keys(headers)) headers[n] = '\u00e9'.repeat(each);
    const r = await s.dash(a.key, 'POST', '/api/hooks', { ...valid, header_map: headers });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect((await s.dash(a.key, 'GET', `/api/hooks/${r.body.Meta}`)).body.header_map).toEqual(masked(headers));
    expect(await storedHeaders(a.orgId, r.body.Meta)).toEqual(headers);
  });

  it('create -> get -> replace (an omitted name is emptied) -> delete', async () => {
    const created = await s.dash(a.key, 'POST', '/api/hooks', valid);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ Status: 'OK', Message: 'Webhook created' });
    const id = created.body.Meta as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);

    const got = await s.dash(a.key, 'GET', `/api/hooks/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, org_id: a.orgId, ...valid, header_map: masked(valid.header_map) });
    expect(got.headers.get('etag')).toBe('"1"');

    const replaced = await s.dash(a.key, 'PUT', `/api/hooks/${id}`, { method: 'PATCH', target_path: 'http://other.example:8080/x?y=1' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ Status: 'OK', Message: 'Webhook updated' });
    const after = await s.dash(a.key, 'GET', `/api/hooks/${id}`);
    expect(after.body).toMatchObject({ id, name: '', method: 'PATCH', target_path: 'http://other.example:8080/x?y=1', header_map: {} });
    expect(after.body.created_at).toBe(got.body.created_at);
    expect(after.headers.get('etag')).toBe('"2"');

    // A full replace needs method and target_path too.
    expect((await s.dash(a.key, 'PUT', `/api/hooks/${id}`, { name: 'only a name' })).status).toBe(400);

    const deleted = await s.dash(a.key, 'DELETE', `/api/hooks/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ Status: 'OK' });
    expect((await s.dash(a.key, 'GET', `/api/hooks/${id}`)).status).toBe(404);
    expect((await s.dash(a.key, 'DELETE', `/api/hooks/${id}`)).status).toBe(404);
  });

  it('answers 404 for unknown ids, for PUT of an absent hook, and 400 for a bad id', async () => {
    const unknown = await s.dash(a.key, 'GET', '/api/hooks/0123456789abcdef01234567');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ Status: 'Error', Meta: null });
    expect((await s.dash(a.key, 'PUT', '/api/hooks/0123456789abcdef01234567', valid)).status).toBe(404);
    expect((await s.dash(a.key, 'GET', '/api/hooks/bad%23id')).status).toBe(400);
  });

  it("hides another organisation's hook: get, replace and delete are 404 and change nothing", async () => {
    const created = await s.dash(a.key, 'POST', '/api/hooks', { ...valid, name: 'mine' });
    const id = created.body.Meta as string;
    expect((await s.dash(b.key, 'GET', `/api/hooks/${id}`)).status).toBe(404);
    expect((await s.dash(b.key, 'PUT', `/api/hooks/${id}`, { ...valid, name: 'theirs' })).status).toBe(404);
    expect((await s.dash(b.key, 'DELETE', `/api/hooks/${id}`)).status).toBe(404);
    const bList = await s.dash(b.key, 'GET', '/api/hooks?p=-1');
    expect(bList.body.hooks.map((h: { id: string }) => h.id)).not.toContain(id);
    const still = await s.dash(a.key, 'GET', `/api/hooks/${id}`);
    expect(still.body).toMatchObject({ name: 'mine', version: 1 });
  });

  it('pages 12 hooks by number and by cursor, with pages from the maintained count', async () => {
    const t = await s.tenant();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await s.dash(t.key, 'POST', '/api/hooks', { ...valid, name: `h${i}` });
      expect(r.status).toBe(200);
      ids.push(r.body.Meta);
    }
    const p1 = await s.dash(t.key, 'GET', '/api/hooks');
    expect(p1.body.pages).toBe(2);
    expect(p1.body.hooks).toHaveLength(10);
    const p2 = await s.dash(t.key, 'GET', '/api/hooks?p=2');
    const idsOf = (r: { body: { hooks: Array<{ id: string }> } }) => r.body.hooks.map((h) => h.id);
    expect(idsOf(p2)).toHaveLength(2);
    // Both pages together hold every hook exactly once.
    expect([...idsOf(p1), ...idsOf(p2)].sort()).toEqual([...ids].sort());
    const next = await s.dash(t.key, 'GET', `/api/hooks?cursor=${p1.body.next_cursor}`);
    expect(idsOf(next)).toEqual(idsOf(p2));
    expect(next.body.next_cursor).toBeUndefined();

    await s.dash(t.key, 'DELETE', `/api/hooks/${ids[0]}`);
    await s.dash(t.key, 'DELETE', `/api/hooks/${ids[1]}`);
    const after = await s.dash(t.key, 'GET', '/api/hooks?page_size=5');
    expect(after.body.pages).toBe(2);
    expect((await s.dash(t.key, 'GET', '/api/hooks?p=-1')).body.hooks).toHaveLength(10);
  });
});
