/**
 * Objects larger than DynamoDB's 400 KB item limit (while their request stays under 5 MB) are a
 * 413 in the group's envelope naming the object, and nothing is stored; before, DynamoDB's
 * ValidationException came back as a 500.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffSnapshots, snapshotTable } from '../hardening/support/snapshot';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';
import type { Answer } from '../support/stage';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [t] = useTenants(s, 1);
let apiId: string;
beforeAll(async () => {
  apiId = await makeApi(s, t.orgId);
});

const KB = 1024;
/** 720 KB of meta_data: a key whose item is over DynamoDB's 400 KB limit. */
const bigMeta = () => ({ blob: 'm'.repeat(720 * KB) });
let n = 0;
const uid = (p: string) => `${p}-${process.pid}-${++n}`;

/** Runs a refused write and proves its answer and that the table did not change. */
async function refused(write: () => Promise<Answer>, group: 'gateway' | 'dashboard' | 'admin', what: RegExp) {
  const before = await snapshotTable(s.table);
  const r = await write();
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(413);
  if (group === 'gateway') expect(r.body).toEqual({ status: 'error', message: expect.stringMatching(what) });
  else expect(r.body).toEqual({ Status: 'Error', Message: expect.stringMatching(what), Meta: null });
  expect(diffSnapshots(before, await snapshotTable(s.table))).toEqual([]);
}

const limit = (object: string) => new RegExp(`^The ${object} is larger than DynamoDB's 400 KB item limit \\(\\d+ KB as stored\\)`);

describe("objects over DynamoDB's 400 KB item limit answer 413 and store nothing", () => {
  it('a key with 720 KB of meta_data: gateway create, admin create, dashboard update', async () => {
    await refused(() => s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: rightsFor(apiId), meta_data: bigMeta() }), 'gateway', limit('key'));
    await refused(() => s.admin('POST', '/admin/org/keys', { org_id: t.orgId, access_rights: rightsFor(apiId), meta_data: bigMeta() }), 'admin', limit('key'));
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), alias: 'small' });
    await refused(
      () => s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}`, { access_rights: rightsFor(apiId), meta_data: bigMeta() }),
      'dashboard',
      limit('key'),
    );
    expect((await s.gw('GET', `/gw/keys/${key}`)).body).toMatchObject({ alias: 'small' });
  });

  it("an organisation's session", async () => {
    await refused(() => s.gw('PUT', `/gw/org/keys/${t.orgId}`, { quota_max: 10, meta_data: bigMeta() }), 'gateway', limit('organisation session'));
  });

  it('an organisation', async () => {
    await refused(() => s.admin('POST', '/admin/organisations', { owner_name: 'big', ui: { designer: bigMeta() } }), 'admin', limit('organisation'));
  });

  it('a policy: create, replace and import (where no policy of the import is written)', async () => {
    await refused(() => s.gw('POST', '/gw/policies', { id: uid('big'), meta_data: bigMeta() }), 'gateway', limit('policy'));
    const id = uid('small');
    expect((await s.gw('POST', '/gw/policies', { id, name: 'small' })).status).toBe(200);
    await refused(() => s.gw('PUT', `/gw/policies/${id}`, { id, meta_data: bigMeta() }), 'gateway', limit('policy'));
    await refused(
      () => s.admin('POST', '/admin/policies/import', { Data: [{ id: uid('a') }, { id: uid('b'), meta_data: bigMeta() }, { id: uid('c') }] }),
      'admin',
      limit('policy'),
    );
  });

  it('an OAuth client: create and update', async () => {
    await refused(
      () => s.gw('POST', '/gw/oauth/clients/create', { api_id: apiId, redirect_uri: 'https://app.example/cb', meta_data: bigMeta() }),
      'gateway',
      limit('OAuth client'),
    );
    const c = await s.gw('POST', '/gw/oauth/clients/create', { api_id: apiId, redirect_uri: 'https://app.example/cb' });
    expect(c.status).toBe(200);
    await refused(
      () => s.gw('PUT', `/gw/oauth/clients/${apiId}/${c.body.client_id}`, { redirect_uri: 'https://app.example/cb', meta_data: bigMeta() }),
      'gateway',
      limit('OAuth client'),
    );
  });

  it('a template whose compressed data and description together pass 400 KB: create and update', async () => {
    // Random text barely compresses: about 330 KB gzipped, under the 350 KB data limit on its own.
    const data = {
      paths: {},
      'x-blob': randomBytes(330 * KB)
        .toString('base64')
        .slice(0, 440 * KB),
    };
    const description = '€'.repeat(65_536); // 192 KB of UTF-8
    await refused(() => s.dash(t.key, 'POST', '/api/assets', { name: 'big', description, data }), 'dashboard', limit('template'));
    const small = await s.dash(t.key, 'POST', '/api/assets', { name: 'small', data: { paths: {} } });
    expect(small.status).toBe(200);
    await refused(() => s.dash(t.key, 'PUT', `/api/assets/${small.body.Meta}`, { name: 'big', description, data }), 'dashboard', limit('template'));
  });
});

describe('policy imports larger than one 4 MB transaction', () => {
  it('100 policies of 45 KB each (4.5 MB) are all stored, split over transactions by size', async () => {
    const ids = Array.from({ length: 100 }, () => uid('bulk'));
    const r = await s.admin('POST', '/admin/policies/import', { Data: ids.map((id) => ({ id, meta_data: { blob: 'b'.repeat(45 * KB) } })) });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    for (const id of [ids[0]!, ids[50]!, ids[99]!]) expect((await s.gw('GET', `/gw/policies/${id}`)).status).toBe(200);
  });
});
