/**
 * Deactivation and key revocation as routes (PUT /admin/users/{userID} and POST
 * /admin/users/{userID}/access-key), and how fast they reach a credential in use
 * (docs/reference/configuration.md, CACHE_SECONDS): at once in the process that made the change,
 * within CACHE_SECONDS in another warm process however often the credential is used meanwhile. The
 * other process is a second local stage (npm start's entry point) on the same table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request } from '../support/client';
import { onEmulator, spawnStage, startStage, type SpawnedStage, type Stage } from '../support/stage';
import { ADMIN_SECRET, GW_SECRET, SERVER_SECRET } from '../support/table';
import { SECRET_WITHHELD } from '../../shared/domain/idempotent-reply';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint';

/**
 * In process, the test's clock passes it at once; the emulated stage's functions see only the
 * template's environment (as in the cloud), so the documented default of 2 s (docs/reference/configuration.md), waited out there.
 */
const CACHE_SECONDS = onEmulator ? 2 : 1;
/** How often the emulator's case uses the key while it waits for the refusal: all the time, as a client would. */
const EVERY_MS = 200;

let s: Stage;
let other: SpawnedStage;
let otherDir: string;
let orgId: string;

/** A second warm process over the same table: what another Lambda container would be. */
async function startOtherProcess(table: string) {
  otherDir = mkdtempSync(join(tmpdir(), 'gw-other-'));
  return spawnStage({
    dataDir: otherDir,
    env: { DYNAMODB_ENDPOINT: workerDynamoEndpoint(), TABLE_NAME: table, GW_SECRET, ADMIN_SECRET, SERVER_SECRET, CACHE_SECONDS: String(CACHE_SECONDS) },
  });
}

beforeAll(async () => {
  process.env.CACHE_SECONDS = String(CACHE_SECONDS);
  s = await startStage();
  orgId = (await s.tenant()).orgId;
  other = await startOtherProcess(s.table);
}, 120_000);
afterAll(async () => {
  await other?.stop();
  if (otherDir) rmSync(otherDir, { recursive: true, force: true });
  await s?.close();
});

let n = 0;
async function newUser(extra: Record<string, unknown> = {}) {
  const email = `u${++n}-${Date.now()}@admin.example`;
  const r = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: email, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.Meta.id as string, key: r.body.Meta.access_key as string, email };
}

/** An admin request to the other process. */
async function otherAdmin(method: string, path: string, body?: unknown) {
  const { status, body: answer } = await request(other.url, method, path, { headers: { 'admin-auth': ADMIN_SECRET }, body });
  return { status, body: answer as any };
}

const useKey = async (key: string) => (await s.dash(key, 'GET', '/api/users')).status;

/**
 * Makes a user whose key this process uses (and so caches), lets `change` deactivate or revoke it
 * in the other process, and shows this process refusing the key within CACHE_SECONDS of reading
 * it, however often it is used meanwhile. In process, on a clock of the test's own (only Date is
 * faked; timers and I/O run as ever): the cached entry answers up to the last millisecond of
 * CACHE_SECONDS and not after. The emulated stage's functions keep their own clock: there the key
 * is used every EVERY_MS until it is refused, within a deadline.
 */
async function refusedWithinCacheSeconds(change: (u: { id: string; key: string; email: string }) => Promise<void>): Promise<void> {
  if (onEmulator) {
    const u = await newUser();
    expect(await useKey(u.key)).toBe(200);
    await change(u);
    await vi.waitFor(async () => expect(await useKey(u.key)).toBe(401), { timeout: CACHE_SECONDS * 1000 + 10_000, interval: EVERY_MS });
    return;
  }
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    const u = await newUser();
    const read = Date.now();
    expect(await useKey(u.key)).toBe(200); // read from the table now, cached from here on
    await change(u);
    for (const elapsed of [0, EVERY_MS, CACHE_SECONDS * 1000 - 1]) {
      vi.setSystemTime(read + elapsed);
      expect(await useKey(u.key), `${elapsed} ms after the read`).toBe(200);
    }
    vi.setSystemTime(read + CACHE_SECONDS * 1000);
    expect(await useKey(u.key), 'CACHE_SECONDS after the read').toBe(401);
  } finally {
    vi.useRealTimers();
  }
}

describe('PUT /admin/users/{userID}', () => {
  it('replaces the editable fields, keeps id, org, stamps, password and permissions; answers the user with its ETag', async () => {
    const u = await newUser({ first_name: 'Ann', password: 'first password', user_permissions: { apis: 'read', users: 'read' } });
    const listed = async () => (await s.dash(u.key, 'GET', '/api/users?p=-1')).body.users.find((x: any) => x.id === u.id);
    const before = await listed();
    const r = await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: true, last_name: 'Lee', org_id: 'elsewhere', id: 'forged' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers.get('etag')).toBe('"2"');
    expect(r.body).toMatchObject({
      Status: 'OK',
      Message: 'User updated',
      ID: u.id,
      Meta: { id: u.id, org_id: orgId, last_name: 'Lee', first_name: '', active: true },
    });
    expect(r.body.Meta).not.toHaveProperty('password_hash');
    expect(r.body.Meta).not.toHaveProperty('access_key');
    const after = await listed();
    expect(after).toMatchObject({
      id: u.id,
      org_id: orgId,
      created_at: before.created_at,
      password_updated: before.password_updated,
      user_permissions: { apis: 'read', users: 'read' },
      version: 2,
    });
  });

  // In this process only: the write clears the cache of the process that made it; the emulated
  // stage runs each route in its own containers, which see it within CACHE_SECONDS (tested below).
  it.skipIf(onEmulator)('deactivates: the key is refused at once in this process, and works again once reactivated', async () => {
    const u = await newUser();
    expect(await useKey(u.key)).toBe(200); // now cached here
    const off = await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: false });
    expect(off.status).toBe(200);
    expect(await useKey(u.key)).toBe(401);
    expect((await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: true })).status).toBe(200);
    expect(await useKey(u.key)).toBe(200);
  });

  it('moves the e-mail marker: the old address is free again, a taken one is 409 and changes nothing', async () => {
    const a = await newUser();
    const b = await newUser();
    const moved = `moved-${a.email}`;
    expect((await s.admin('PUT', `/admin/users/${a.id}`, { email_address: moved, active: true })).status).toBe(200);
    const reuse = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: a.email });
    expect(reuse.status, 'the old address is free').toBe(200);
    const clash = await s.admin('PUT', `/admin/users/${b.id}`, { email_address: moved.toUpperCase(), active: false });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ Status: 'Error', Meta: null });
    expect(await useKey(b.key), 'the refused update did not deactivate').toBe(200);
    const dup = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: moved });
    expect(dup.status, 'the new address is taken').toBe(409);
  });

  it('answers 404 for an unknown user, 400 without active; takes If-Match', async () => {
    const u = await newUser();
    expect((await s.admin('PUT', '/admin/users/000000000000000000000000', { email_address: 'x@y.example', active: false })).status).toBe(404);
    expect((await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email })).status).toBe(400);
    const fresh = await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: false }, { 'if-match': '"1"' });
    expect(fresh.status).toBe(200);
  });

  it('another warm process refuses a key deactivated elsewhere within CACHE_SECONDS, though it is used all the time', async () => {
    await refusedWithinCacheSeconds(async (u) => {
      const off = await otherAdmin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: false });
      expect(off.status, JSON.stringify(off.body)).toBe(200);
    });
  });
});

describe('POST /admin/users/{userID}/access-key', () => {
  // In this process only: the write clears the cache of the process that made it; the emulated
  // stage runs each route in its own containers, which see it within CACHE_SECONDS (tested below).
  it.skipIf(onEmulator)('revokes the key (refused at once here) and issues a new one, shown once', async () => {
    const u = await newUser();
    expect(await useKey(u.key)).toBe(200);
    const r = await s.admin('POST', `/admin/users/${u.id}/access-key`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const fresh = r.body.Meta.access_key as string;
    expect(r.body).toMatchObject({ Status: 'OK', Message: fresh, ID: u.id, Meta: { id: u.id, org_id: orgId } });
    expect(fresh).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh).not.toBe(u.key);
    expect(await useKey(u.key)).toBe(401);
    expect(await useKey(fresh)).toBe(200);
    // Shown once: lists never carry it.
    expect(JSON.stringify((await s.dash(fresh, 'GET', '/api/users?p=-1')).body)).not.toContain(fresh);
  });

  it('keeps the user inactive when it was, answers 404 for an unknown user, and replays under an Idempotency-Key', async () => {
    const off = await newUser({ active: false });
    const r = await s.admin('POST', `/admin/users/${off.id}/access-key`);
    expect(r.status).toBe(200);
    expect(await useKey(r.body.Meta.access_key)).toBe(401);
    expect((await s.admin('POST', '/admin/users/000000000000000000000000/access-key')).status).toBe(404);
    const u = await newUser();
    const first = await s.admin('POST', `/admin/users/${u.id}/access-key`, undefined, { 'idempotency-key': `rot-${u.id}` });
    const again = await s.admin('POST', `/admin/users/${u.id}/access-key`, undefined, { 'idempotency-key': `rot-${u.id}` });
    expect(again.body).toEqual({ ...first.body, Message: SECRET_WITHHELD, Meta: { ...first.body.Meta, access_key: SECRET_WITHHELD } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).not.toContain(first.body.Message);
    expect(await useKey(first.body.Meta.access_key)).toBe(200);
  });

  it('another warm process refuses a key revoked elsewhere within CACHE_SECONDS, though it is used all the time', async () => {
    await refusedWithinCacheSeconds(async (u) => {
      const r = await otherAdmin('POST', `/admin/users/${u.id}/access-key`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(await useKey(r.body.Meta.access_key)).toBe(200);
    });
  });
});
