import { beforeAll, describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../shared/store/db/client';
import { makeApi, rightsFor } from '../support/fixtures';

const s = useStage();
let apiId: string;
let otherApi: string;
const gold = `gold-${process.pid}-${Date.now().toString(36)}`;
const elsewhere = `elsewhere-${process.pid}-${Date.now().toString(36)}`;
beforeAll(async () => {
  const t = await s.tenant();
  apiId = await makeApi(s, t.orgId, 'oauth');
  otherApi = await makeApi(s, t.orgId, 'other');
  for (const [id, api] of [
    [gold, apiId],
    [elsewhere, otherApi],
  ] as const) {
    const r = await s.gw('POST', '/gw/policies', { id, name: id, org_id: t.orgId, access_rights: rightsFor(api) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
});

const create = (body: Record<string, unknown>) => s.gw('POST', '/gw/oauth/clients/create', body);

describe('OAuth clients', () => {
  it('create answers the client id and the secret once; the list never shows the secret', async () => {
    const r = await create({ api_id: apiId, redirect_uri: 'https://app.example/cb', policy_id: gold, meta_data: { team: 'a' }, description: 'first' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      client_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      api_id: apiId,
      redirect_uri: 'https://app.example/cb',
      policy_id: gold,
      meta_data: { team: 'a' },
      description: 'first',
    });
    const list = await s.gw('GET', `/gw/oauth/clients/${apiId}`);
    expect(list.status).toBe(200);
    const mine = list.body.find((c: { client_id: string }) => c.client_id === r.body.client_id);
    const { secret, ...withoutSecret } = r.body;
    expect(mine).toEqual(withoutSecret);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect((await s.gw('GET', `/gw/oauth/clients/${otherApi}`)).body).toEqual([]);
  });

  it('create refuses bad bodies (400), unknown APIs and policies (422), a policy lacking the API (400), a taken id (409)', async () => {
    expect((await create({ api_id: apiId })).status).toBe(400);
    expect((await create({ api_id: apiId, redirect_uri: 'not a uri' })).status).toBe(400);
    expect((await create({ redirect_uri: 'https://x.example' })).status).toBe(400);
    const noApi = await create({ api_id: 'no-such-api', redirect_uri: 'https://x.example' });
    expect(noApi.status).toBe(422);
    expect(noApi.body).toMatchObject({ status: 'error' });
    expect((await create({ api_id: apiId, redirect_uri: 'https://x.example', policy_id: 'no-such-policy' })).status).toBe(422);
    const lacking = await create({ api_id: apiId, redirect_uri: 'https://x.example', policy_id: elsewhere });
    expect(lacking.status).toBe(400);
    expect(lacking.body.message).toContain(elsewhere);
    const id = `custom-${Date.now().toString(36)}`;
    expect((await create({ api_id: apiId, redirect_uri: 'https://x.example', client_id: id })).body.client_id).toBe(id);
    expect((await create({ api_id: apiId, redirect_uri: 'https://y.example', client_id: id })).status).toBe(409);
    // Nothing from the refused calls was stored.
    const list = await s.gw('GET', `/gw/oauth/clients/${apiId}`);
    expect(
      list.body.filter((c: { redirect_uri: string }) => c.redirect_uri !== 'https://app.example/cb').map((c: { client_id: string }) => c.client_id),
    ).toEqual([id]);
  });

  it('update replaces redirect_uri, description and meta_data, keeps client_id and secret', async () => {
    const c = (await create({ api_id: apiId, redirect_uri: 'https://old.example/cb', policy_id: gold, meta_data: { v: 1 }, description: 'old' })).body;
    const r = await s.gw('PUT', `/gw/oauth/clients/${apiId}/${c.client_id}`, {
      redirect_uri: 'https://new.example/cb;com.example.app:/cb',
      description: 'new',
      meta_data: { v: 2 },
    });
    expect(r.status).toBe(200);
    // policy_id was omitted: replaced by empty.
    expect(r.body).toEqual({
      client_id: c.client_id,
      api_id: apiId,
      redirect_uri: 'https://new.example/cb;com.example.app:/cb',
      policy_id: '',
      meta_data: { v: 2 },
      description: 'new',
    });
    expect(r.headers.get('etag')).toBe('"2"');
    const listed = (await s.gw('GET', `/gw/oauth/clients/${apiId}`)).body.find((x: { client_id: string }) => x.client_id === c.client_id);
    expect(listed).toEqual(r.body);

    // The secret is kept: the original one is accepted back, any other refused.
    expect((await s.gw('PUT', `/gw/oauth/clients/${apiId}/${c.client_id}`, { redirect_uri: 'https://a.example', secret: c.secret })).status).toBe(200);
    const changed = await s.gw('PUT', `/gw/oauth/clients/${apiId}/${c.client_id}`, { redirect_uri: 'https://a.example', secret: 'f'.repeat(64) });
    expect(changed.status).toBe(400);
    expect((await s.gw('PUT', `/gw/oauth/clients/${apiId}/${c.client_id}`, { client_id: 'another' })).status).toBe(400);
    expect((await s.gw('PUT', `/gw/oauth/clients/${apiId}/${c.client_id}`, { api_id: otherApi })).status).toBe(400);
  });

  it('update answers 404 for an unknown API or client or another API’s client, 422 unknown policy, 400 a policy lacking the API', async () => {
    const c = (await create({ api_id: apiId, redirect_uri: 'https://k.example/cb', description: 'kept' })).body;
    const put = (api: string, client: string, body: Record<string, unknown>) => s.gw('PUT', `/gw/oauth/clients/${api}/${client}`, body);
    const noApi = await put('no-such-api', c.client_id, { redirect_uri: 'https://z.example' });
    expect(noApi.status).toBe(404);
    expect(noApi.body).toMatchObject({ status: 'error' });
    expect((await put(apiId, 'no-such-client', { redirect_uri: 'https://z.example' })).status).toBe(404);
    expect((await put(otherApi, c.client_id, { redirect_uri: 'https://z.example' })).status).toBe(404);
    expect((await put(apiId, c.client_id, { redirect_uri: 'https://z.example', policy_id: 'no-such-policy' })).status).toBe(422);
    const lacking = await put(apiId, c.client_id, { redirect_uri: 'https://z.example', policy_id: elsewhere });
    expect(lacking.status).toBe(400);
    expect(lacking.body).toMatchObject({ status: 'error' });
    // None of the refused updates changed the client.
    const listed = (await s.gw('GET', `/gw/oauth/clients/${apiId}`)).body.find((x: { client_id: string }) => x.client_id === c.client_id);
    expect(listed).toMatchObject({ redirect_uri: 'https://k.example/cb', description: 'kept' });
    expect((await s.gw('GET', '/gw/oauth/clients/no-such-api')).status).toBe(404);
  });

  it('update and delete take If-Match; delete answers the gateway result and 404 afterwards', async () => {
    const c = (await create({ api_id: apiId, redirect_uri: 'https://d.example/cb' })).body;
    const path = `/gw/oauth/clients/${apiId}/${c.client_id}`;
    expect((await s.gw('PUT', path, { redirect_uri: 'https://d.example/2' }, { 'if-match': '"1"' })).status).toBe(200);
    expect((await s.gw('DELETE', `/gw/oauth/clients/${otherApi}/${c.client_id}`)).status).toBe(404);
    const del = await s.gw('DELETE', path, undefined, { 'if-match': '"2"' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ key: c.client_id, status: 'ok', action: 'deleted' });
    expect((await s.gw('DELETE', path)).status).toBe(404);
    expect((await s.gw('PUT', path, { redirect_uri: 'https://d.example/4' })).status).toBe(404);
    const list = await s.gw('GET', `/gw/oauth/clients/${apiId}`);
    expect(list.body.map((x: { client_id: string }) => x.client_id)).not.toContain(c.client_id);
  });

  /** The OAuth client items stored for an API, read from the table itself. */
  const clientItemsOf = async (apiId: string) =>
    (
      await ddb().send(
        new ScanCommand({
          TableName: s.table,
          FilterExpression: 'entity = :e AND api_id = :a',
          ExpressionAttributeValues: { ':e': 'oauth_client', ':a': apiId },
        }),
      )
    ).Items;

  it('deleting the API deletes its clients with it', async () => {
    const t = await s.tenant();
    const doomed = await makeApi(s, t.orgId, 'doomed');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ api_id: doomed, redirect_uri: 'https://app.example/cb' })).body.client_id as string);
    expect((await s.gw('GET', `/gw/oauth/clients/${doomed}`)).body).toHaveLength(3);
    expect((await s.gw('DELETE', `/gw/apis/${doomed}`)).status).toBe(200);
    expect(await clientItemsOf(doomed)).toEqual([]);
    expect((await s.gw('PUT', `/gw/oauth/clients/${doomed}/${ids[0]}`, { redirect_uri: 'https://x.example/cb' })).status).toBe(404);
  });

  it("deleting the API from the dashboard deletes its clients with it (the route's grant covers them: a 500 in the cloud before)", async () => {
    const t = await s.tenant();
    const doomed = await makeApi(s, t.orgId, 'doomed-dash');
    const id = (await create({ api_id: doomed, redirect_uri: 'https://app.example/cb' })).body.client_id as string;
    const del = await s.dash(t.key, 'DELETE', `/api/apis/${doomed}`);
    expect(del.status, del.text).toBe(200);
    expect(await clientItemsOf(doomed)).toEqual([]);
    expect((await s.gw('PUT', `/gw/oauth/clients/${doomed}/${id}`, { redirect_uri: 'https://x.example/cb' })).status).toBe(404);
  });
});
