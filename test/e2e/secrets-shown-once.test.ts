/**
 * Secrets come back neither from an Idempotency-Key replay nor from a read (contract §3, §9):
 * a replay answers the secrets the first answer showed withheld (and says so), also after a
 * rotation; webhook header values are write-only, a PUT keeps them when sent back masked, and
 * the delivery still sends the real values.
 */
import { describe, expect, it } from 'vitest';
import { SECRET_WITHHELD } from '../../shared/domain/idempotent-reply';
import { HEADER_VALUE_MASK } from '../../shared/schemas/webhook-headers';
import { onEmulator } from '../support/stage';
import { uid } from '../support/fixtures';
import { useWebhookStage } from '../support/webhook-stage';

// The delivery checks call a receiver on 127.0.0.1 through this process's change feed; the rest runs on the emulator too.
const ws = useWebhookStage();

const AUTH = 'Bearer receiver-credential-0123456789';
const hook = (headers: Record<string, string>, target = 'https://hooks.example/in') => ({
  name: uid('h'),
  method: 'POST',
  target_path: target,
  header_map: headers,
});

describe('Idempotency-Key replays never show a secret again', () => {
  it('POST /api/hooks: the replay withholds signing_secret, says so, and after a rotation shows neither secret', async () => {
    const idem = { 'idempotency-key': uid('idem-hook') };
    const body = hook({ 'x-team': 'ops' });
    const first = await ws.s.dash(ws.t.key, 'POST', '/api/hooks', body, idem);
    expect(first.status).toBe(200);
    const secret = first.body.signing_secret as string;
    expect(secret.length).toBeGreaterThan(20);

    const replay = await ws.s.dash(ws.t.key, 'POST', '/api/hooks', body, idem);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('idempotent-secrets-withheld')).toBe('signing_secret');
    expect(replay.body).toEqual({ ...first.body, signing_secret: SECRET_WITHHELD });
    expect(replay.text).not.toContain(secret);

    const rotated = await ws.s.dash(ws.t.key, 'POST', `/api/hooks/${first.body.Meta}/signing-secret`);
    expect(rotated.status).toBe(200);
    const after = await ws.s.dash(ws.t.key, 'POST', '/api/hooks', body, idem);
    expect(after.body.signing_secret).toBe(SECRET_WITHHELD);
    expect(after.text).not.toContain(secret);
    expect(after.text).not.toContain(rotated.body.signing_secret);
  });

  it('POST /admin/users and the access-key rotation: Message and Meta.access_key withheld on replay', async () => {
    const idem = { 'idempotency-key': uid('idem-user') };
    const body = { org_id: ws.t.orgId, email_address: `${uid('u')}@example.com` };
    const first = await ws.s.admin('POST', '/admin/users', body, idem);
    const replay = await ws.s.admin('POST', '/admin/users', body, idem);
    expect(replay.body.Message).toBe(SECRET_WITHHELD);
    expect(replay.body.Meta.access_key).toBe(SECRET_WITHHELD);
    expect(replay.text).not.toContain(first.body.Message);
    // The key shown once still works; the replay's text is no key.
    expect((await ws.s.dash(first.body.Message, 'GET', '/api/users')).status).toBe(200);
    expect((await ws.s.dash(replay.body.Message, 'GET', '/api/users')).status).toBe(401);
  });
});

describe('webhook header values are write-only', () => {
  it('get, list and the API listing show no header value; every value reads as the mask', async () => {
    const created = await ws.s.dash(ws.t.key, 'POST', '/api/hooks', hook({ Authorization: AUTH, 'x-team': 'ops' }));
    const id = created.body.Meta as string;
    const got = await ws.s.dash(ws.t.key, 'GET', `/api/hooks/${id}`);
    expect(got.body.header_map).toEqual({ Authorization: HEADER_VALUE_MASK, 'x-team': HEADER_VALUE_MASK });
    const list = await ws.s.dash(ws.t.key, 'GET', '/api/hooks?p=-1');
    expect(list.body.hooks.find((h: { id: string }) => h.id === id).header_map).toEqual({ Authorization: HEADER_VALUE_MASK, 'x-team': HEADER_VALUE_MASK });
    expect(list.text).not.toContain(AUTH);
    const apiId = uid('hooked');
    const api = await ws.s.gw('POST', '/gw/apis', {
      api_id: apiId,
      name: apiId,
      org_id: ws.t.orgId,
      proxy: { listen_path: `/${apiId}/`, target_url: 'http://up.example' },
      event_handlers: { events: { QuotaExceeded: [{ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: id } }] } },
    });
    expect(api.status).toBe(200);
    const listing = await ws.s.dash(ws.t.key, 'GET', '/api/apis?p=-1');
    expect(listing.text).toContain(id);
    expect(listing.text).not.toContain(AUTH);
  });

  it('a PUT sending the mask keeps the stored value, a new value replaces it, and the mask for a name with no value is 400', async () => {
    const id = (await ws.s.dash(ws.t.key, 'POST', '/api/hooks', hook({ Authorization: AUTH, 'x-team': 'ops' }))).body.Meta as string;
    const read = (await ws.s.dash(ws.t.key, 'GET', `/api/hooks/${id}`)).body;
    // The read sent back as it is, one value changed, one header added.
    const put = await ws.s.dash(ws.t.key, 'PUT', `/api/hooks/${id}`, { ...read, header_map: { ...read.header_map, 'x-team': 'sre', 'x-new': 'n' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const unknown = await ws.s.dash(ws.t.key, 'PUT', `/api/hooks/${id}`, { ...read, header_map: { 'x-other': HEADER_VALUE_MASK } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Meta.errors[0].path).toBe('body.header_map.x-other');
    const created = await ws.s.dash(ws.t.key, 'POST', '/api/hooks', hook({ Authorization: HEADER_VALUE_MASK }));
    expect(created.status).toBe(400);
    if (onEmulator) return;
    // What is stored (and delivered) is checked below; here the names read back.
    expect((await ws.s.dash(ws.t.key, 'GET', `/api/hooks/${id}`)).body.header_map).toEqual({
      Authorization: HEADER_VALUE_MASK,
      'x-team': HEADER_VALUE_MASK,
      'x-new': HEADER_VALUE_MASK,
    });
  });

  (onEmulator ? it.skip : it)('the delivery sends the real values, kept ones included', async () => {
    const rx = await ws.receiver();
    const id = (await ws.s.dash(ws.t.key, 'POST', '/api/hooks', hook({ Authorization: AUTH, 'x-team': 'ops' }, rx.url))).body.Meta as string;
    const read = (await ws.s.dash(ws.t.key, 'GET', `/api/hooks/${id}`)).body;
    expect((await ws.s.dash(ws.t.key, 'PUT', `/api/hooks/${id}`, { ...read, header_map: { ...read.header_map, 'x-team': 'sre' } })).status).toBe(200);
    expect((await ws.s.dash(ws.t.key, 'POST', `/api/hooks/${id}/test`)).status).toBe(200);
    const [call] = await rx.waitFor(1);
    expect(call!.headers.authorization).toBe(AUTH);
    expect(call!.headers['x-team']).toBe('sre');
  });
});

describe("a webhook target's credentials are write-only", () => {
  const withCredentials = (url: string) => url.replace('://', '://hook-user:hook-pass@').concat('?token=tok-abc&team=ops');
  const masked = (url: string) => url.replace('://', `://${HEADER_VALUE_MASK}:${HEADER_VALUE_MASK}@`).concat(`?token=${HEADER_VALUE_MASK}&team=ops`);

  it('a hooks: read user sees neither the userinfo nor the token, in the hook or the list; the rest of the URL as it is', async () => {
    const target = 'https://x.example/h';
    const id = (await ws.s.dash(ws.t.key, 'POST', '/api/hooks', hook({}, withCredentials(target)))).body.Meta as string;
    const reader = await ws.s.admin('POST', '/admin/users', {
      org_id: ws.t.orgId,
      email_address: `${uid('r')}@example.com`,
      user_permissions: { hooks: 'read' },
    });
    const key = reader.body.Meta.access_key as string;
    const got = await ws.s.dash(key, 'GET', `/api/hooks/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.target_path).toBe(masked(target));
    const list = await ws.s.dash(key, 'GET', '/api/hooks?p=-1');
    expect(list.body.hooks.find((h: { id: string }) => h.id === id).target_path).toBe(masked(target));
    for (const text of [got.text, list.text]) for (const secret of ['hook-user', 'hook-pass', 'tok-abc']) expect(text).not.toContain(secret);
    // A mask in a place the stored target has no credential keeps nothing: 400 at the target.
    const unknown = await ws.s.dash(ws.t.key, 'PUT', `/api/hooks/${id}`, { ...got.body, target_path: `https://x.example/h?secret=${HEADER_VALUE_MASK}` });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Meta.errors[0].path).toBe('body.target_path');
    const created = await ws.s.dash(ws.t.key, 'POST', '/api/hooks', hook({}, masked(target)));
    expect(created.status).toBe(400);
  });

  (onEmulator ? it.skip : it)('the read sent back keeps them, and the delivery calls the target with them', async () => {
    const rx = await ws.receiver();
    const id = (await ws.s.dash(ws.t.key, 'POST', '/api/hooks', hook({}, withCredentials(rx.url)))).body.Meta as string;
    const read = (await ws.s.dash(ws.t.key, 'GET', `/api/hooks/${id}`)).body;
    expect(read.target_path).toBe(masked(rx.url));
    expect((await ws.s.dash(ws.t.key, 'PUT', `/api/hooks/${id}`, { ...read, name: 'renamed' })).status).toBe(200);
    expect((await ws.s.dash(ws.t.key, 'POST', `/api/hooks/${id}/test`)).status).toBe(200);
    const [call] = await rx.waitFor(1);
    expect(call!.url).toBe('/hook?token=tok-abc&team=ops');
    expect(call!.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook-pass').toString('base64')}`);
  });
});
