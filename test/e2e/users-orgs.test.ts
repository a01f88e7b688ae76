import { describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { SECRET_WITHHELD } from '../../shared/domain/idempotent-reply';

const s = useStage();

describe('organisations (POST /admin/organisations)', () => {
  it('creates with the given id, and answers the id in Meta', async () => {
    const r = await s.admin('POST', '/admin/organisations', { id: 'acme', owner_name: 'Acme' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Status: 'OK', Message: 'Organisation created', Meta: 'acme' });
    expect(r.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('generates a 24-hex id when none is given', async () => {
    const r = await s.admin('POST', '/admin/organisations', { owner_name: 'No id' });
    expect(r.status).toBe(200);
    expect(r.body.Meta).toMatch(/^[0-9a-f]{24}$/);
  });

  it('answers 409 for a taken id, and keeps the first', async () => {
    await s.admin('POST', '/admin/organisations', { id: 'dup-org', owner_name: 'first' });
    const r = await s.admin('POST', '/admin/organisations', { id: 'dup-org', owner_name: 'second' });
    expect(r.status).toBe(409);
    expect(r.body.Status).toBe('Error');
    expect(r.body.Message).toBe('that organisation id is taken');
  });

  it('rejects bad ids, malformed JSON and wrong types with 400 in the admin envelope', async () => {
    const bad = await s.admin('POST', '/admin/organisations', { id: 'a#b' });
    expect(bad.status).toBe(400);
    expect(bad.body.Meta.errors[0].path).toBe('body.id');
    const malformed = await s.call('POST', '/admin/organisations', {
      body: '{"id": "x",',
      headers: { 'admin-auth': 'test-admin-secret', 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ Status: 'Error', Meta: null });
    const proto = await s.call('POST', '/admin/organisations', {
      body: '{"id":"p1","__proto__":{"admin":true}}',
      headers: { 'admin-auth': 'test-admin-secret', 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
    const wrongType = await s.admin('POST', '/admin/organisations', { id: 'ok-id', cname_enabled: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.Meta.errors).toEqual([expect.objectContaining({ path: 'body.cname_enabled' })]);
  });

  it('answers 415 for a non-JSON content type and 413 over 5 MB', async () => {
    const r415 = await s.call('POST', '/admin/organisations', {
      body: 'id=x',
      headers: { 'admin-auth': 'test-admin-secret', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r415.status).toBe(415);
    const big = JSON.stringify({ id: 'big', owner_name: 'x'.repeat(5 * 1024 * 1024) });
    const r413 = await s.call('POST', '/admin/organisations', {
      body: big,
      headers: { 'admin-auth': 'test-admin-secret', 'content-type': 'application/json' },
    });
    expect(r413.status).toBe(413);
    expect(r413.body.Status).toBe('Error');
  });
});

describe('dashboard users', () => {
  it('issues an access key once; 422 for an unknown org; 409 for a duplicate e-mail (any case)', async () => {
    await s.admin('POST', '/admin/organisations', { id: 'users-org' });
    const r = await s.admin('POST', '/admin/users', {
      org_id: 'users-org',
      email_address: 'Ann@Example.com',
      first_name: 'Ann',
      last_name: 'Lee',
      password: 'correct horse battery',
    });
    expect(r.status).toBe(200);
    expect(r.body.Status).toBe('OK');
    const key = r.body.Meta.access_key;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(r.body.Message).toBe(key);
    expect(r.body.Meta).toMatchObject({ org_id: 'users-org', email_address: 'Ann@Example.com', active: true });
    expect(r.body.Meta.password).toBeUndefined();
    expect(r.body.Meta.password_hash).toBeUndefined();

    expect((await s.admin('POST', '/admin/users', { org_id: 'nope', email_address: 'a@b.co' })).status).toBe(422);
    const dup = await s.admin('POST', '/admin/users', { org_id: 'users-org', email_address: 'ann@example.COM' });
    expect(dup.status).toBe(409);

    const list = await s.dash(key, 'GET', '/api/users');
    expect(list.status).toBe(200);
    expect(list.body.users).toHaveLength(1);
    const shown = JSON.stringify(list.body);
    expect(shown).not.toContain(key);
    expect(shown).not.toContain('scrypt');
    expect(list.body.users[0]).not.toHaveProperty('access_key');
    expect(list.body.users[0]).not.toHaveProperty('password_hash');
  });

  it('pages 25 users: p=1 gives 10 and pages 3, p=3 gives 5, p=-1 gives all, cursors walk each once', async () => {
    const t = await s.tenant('paging-org');
    for (let i = 1; i < 25; i++) {
      const r = await s.admin('POST', '/admin/users', { org_id: 'paging-org', email_address: `user${i}@paging.example` });
      expect(r.status).toBe(200);
    }
    const p1 = await s.dash(t.key, 'GET', '/api/users?p=1');
    expect(p1.body.pages).toBe(3);
    expect(p1.body.users).toHaveLength(10);
    const p3 = await s.dash(t.key, 'GET', '/api/users?p=3');
    expect(p3.body.users).toHaveLength(5);
    const all = await s.dash(t.key, 'GET', '/api/users?p=-1');
    expect(all.body.users).toHaveLength(25);
    expect(all.body.pages).toBe(1);
    const none = await s.dash(t.key, 'GET', '/api/users?p=4');
    expect(none.body.users).toEqual([]);
    const sized = await s.dash(t.key, 'GET', '/api/users?page_size=20');
    expect(sized.body).toMatchObject({ pages: 2 });
    expect(sized.body.users).toHaveLength(20);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.dash(t.key, 'GET', `/api/users${cursor ? `?cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.users.map((u: { id: string }) => u.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(new Set(seen)).toEqual(new Set(all.body.users.map((u: { id: string }) => u.id)));

    for (const bad of ['p=abc', 'page_size=0', 'page_size=101', 'cursor=bm9wZQ']) {
      const r = await s.dash(t.key, 'GET', `/api/users?${bad}`);
      expect(r.status, bad).toBe(400);
    }
  });

  it('searches by case-insensitive substring of the e-mail; q is required; other orgs never show', async () => {
    const a = await s.tenant('search-a');
    const b = await s.tenant('search-b');
    await s.admin('POST', '/admin/users', { org_id: 'search-a', email_address: 'Zed.Smith@corp.example' });
    await s.admin('POST', '/admin/users', { org_id: 'search-a', email_address: 'amy@corp.example' });
    await s.admin('POST', '/admin/users', { org_id: 'search-b', email_address: 'zed.jones@corp.example' });

    const found = await s.dash(a.key, 'GET', '/api/users/search?q=ZED');
    expect(found.status).toBe(200);
    expect(found.body.users.map((u: { email_address: string }) => u.email_address)).toEqual(['Zed.Smith@corp.example']);
    expect(found.body.pages).toBe(1);

    const corp = await s.dash(a.key, 'GET', '/api/users/search?q=corp.example');
    expect(corp.body.users).toHaveLength(2);
    expect((await s.dash(a.key, 'GET', '/api/users/search')).status).toBe(400);

    const bList = await s.dash(b.key, 'GET', '/api/users?p=-1');
    const bEmails = bList.body.users.map((u: { email_address: string }) => u.email_address).sort();
    expect(bEmails).toEqual(['owner@search-b.example', 'zed.jones@corp.example']);
    const aList = await s.dash(a.key, 'GET', '/api/users?p=-1');
    expect(aList.body.users.every((u: { org_id: string }) => u.org_id === 'search-a')).toBe(true);
  });

  it('refuses an inactive user’s key with 401', async () => {
    await s.admin('POST', '/admin/organisations', { id: 'inactive-org' });
    const r = await s.admin('POST', '/admin/users', { org_id: 'inactive-org', email_address: 'x@y.example', active: false });
    expect(r.status).toBe(200);
    const list = await s.dash(r.body.Meta.access_key, 'GET', '/api/users');
    expect(list.status).toBe(401);
    expect(list.body).toMatchObject({ Status: 'Error' });
  });
});

describe('Idempotency-Key on creating POSTs', () => {
  it('replays the first answer, 422 on another body, creates one object under concurrency', async () => {
    const body = { org_id: 'idem-org', email_address: 'idem@x.example' };
    await s.admin('POST', '/admin/organisations', { id: 'idem-org' });
    const first = await s.admin('POST', '/admin/users', body, { 'idempotency-key': 'k-1' });
    const again = await s.admin('POST', '/admin/users', body, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, Message: SECRET_WITHHELD, Meta: { ...first.body.Meta, access_key: SECRET_WITHHELD } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await s.admin('POST', '/admin/users', { ...body, email_address: 'other@x.example' }, { 'idempotency-key': 'k-1' });
    expect(other.status).toBe(422);

    const results = await Promise.all(
      Array.from({ length: 8 }, () => s.admin('POST', '/admin/organisations', { id: 'idem-concurrent' }, { 'idempotency-key': 'k-2' })),
    );
    const oks = results.filter((r) => r.status === 200);
    expect(oks.length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    // Replays after completion answer the same success, not a duplicate-id conflict.
    const later = await s.admin('POST', '/admin/organisations', { id: 'idem-concurrent' }, { 'idempotency-key': 'k-2' });
    expect(later.status).toBe(200);
  });
});

describe('unknown paths and methods', () => {
  it('404 and 405 come in the envelope of the prefix', async () => {
    const gw404 = await s.call('GET', '/gw/nothing');
    expect(gw404.status).toBe(404);
    expect(gw404.body).toMatchObject({ status: 'error' });
    const api404 = await s.call('GET', '/api/nothing');
    expect(api404.body).toMatchObject({ Status: 'Error', Meta: null });
    const r405 = await s.call('DELETE', '/admin/organisations');
    expect(r405.status).toBe(405);
    expect(r405.headers.get('allow')).toBe('GET, POST');
    expect(r405.body).toMatchObject({ Status: 'Error' });
  });

  it('answers /hello with pass', async () => {
    const r = await s.call('GET', '/hello');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('pass');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
