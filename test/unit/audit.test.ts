/**
 * The audit trail's pure rules (contract §12): what the patch masks (the table of
 * credential-bearing members, shared/domain/credential-members.ts), that a changed credential is a
 * masked change, what a reader without `users: read` sees of a user, and that the patch applies to
 * the old object exactly, carrying the old values in its tests.
 */
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { auditPatch, REDACTED, withoutPersonalData } from '../../shared/domain/audit';
import { entryOf } from '../../shared/services/audit';

const { applyPatch } = fastJsonPatch;

/** What the patch of a create shows: the object as the trail shows it. */
const shownAsCreated = (type: Parameters<typeof auditPatch>[0], after: Record<string, unknown>) =>
  applyPatch({}, auditPatch(type, undefined, after), true, false).newDocument;

describe('what the trail masks', () => {
  it('credentials wherever they are named, keeping the key hash that names a key', () => {
    const stored = {
      key_hash: 'abc',
      password_hash: 'scrypt$x',
      access_key_hash: 'h',
      secret_hash: 'h2',
      signing_secret_sealed: 'sealed',
      basic_auth_data: { user_name: 'u', password: 'p' },
      jwt: { secret: 's', hmac_string: 'hm', enabled: true },
      upstream: { clientSecret: 'cs', privateKey: 'pk', api_key: 'ak', token: 't', tokenEndpoint: 'https://idp.example/token' },
      name: 'visible',
    };
    expect(shownAsCreated('key', stored)).toEqual({
      key_hash: 'abc',
      password_hash: REDACTED,
      access_key_hash: REDACTED,
      secret_hash: REDACTED,
      signing_secret_sealed: REDACTED,
      basic_auth_data: { user_name: 'u', password: REDACTED },
      jwt: { secret: REDACTED, hmac_string: REDACTED, enabled: true },
      upstream: { clientSecret: REDACTED, privateKey: REDACTED, api_key: REDACTED, token: REDACTED, tokenEndpoint: 'https://idp.example/token' },
      name: 'visible',
    });
  });

  it('credential header values in header maps; every value of a webhook header_map', () => {
    const api = { definition: { classic: { global_headers: { Authorization: 'Bearer x', 'X-Api-Key': 'k', Cookie: 'c', 'X-Trace': 'on' } } } };
    expect(shownAsCreated('api', api)).toEqual({
      definition: { classic: { global_headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, Cookie: REDACTED, 'X-Trace': 'on' } } },
    });
    expect(shownAsCreated('webhook', { header_map: { 'x-trace': 'on' } })).toEqual({ header_map: { 'x-trace': REDACTED } });
  });

  it('an OAS API: header values in the array form of transformRequestHeaders (global and per operation) and the upstream URL userinfo', () => {
    const gw = {
      upstream: { url: 'https://u:p@up.example/base?token=abc&page=2' },
      middleware: {
        global: {
          transformRequestHeaders: {
            add: [
              { name: 'Authorization', value: 'Bearer s3cret' },
              { name: 'X-Team', value: 'ops' },
            ],
          },
        },
        operations: { listOrders: { transformRequestHeaders: { add: [{ name: 'X-Api-Key', value: 'op-secret' }] } } },
      },
    };
    const api = { api_id: 'a', definition: { oas: { 'x-gw-api-gateway': gw }, classic: { proxy: { target_url: 'https://u:p@up.example/base' } } } };
    const patch = JSON.stringify(auditPatch('api', undefined, api));
    for (const secret of ['s3cret', 'op-secret', 'u:p', 'abc']) expect(patch).not.toContain(secret);
    expect(shownAsCreated('api', api)).toEqual({
      api_id: 'a',
      definition: {
        oas: {
          'x-gw-api-gateway': {
            upstream: { url: `https://${REDACTED}:${REDACTED}@up.example/base?token=${REDACTED}&page=2` },
            middleware: {
              global: {
                transformRequestHeaders: {
                  add: [
                    { name: 'Authorization', value: REDACTED },
                    { name: 'X-Team', value: 'ops' },
                  ],
                },
              },
              operations: { listOrders: { transformRequestHeaders: { add: [{ name: 'X-Api-Key', value: REDACTED }] } } },
            },
          },
        },
        classic: { proxy: { target_url: `https://${REDACTED}:${REDACTED}@up.example/base` } },
      },
    });
  });

  it('a template holds an OAS document: the same rules apply to its data', () => {
    const data = { 'x-gw-api-gateway': { upstream: { url: 'https://svc:pw@up.example' } } };
    expect(shownAsCreated('template', { name: 'T', data })).toEqual({
      name: 'T',
      data: { 'x-gw-api-gateway': { upstream: { url: `https://${REDACTED}:${REDACTED}@up.example` } } },
    });
  });

  it("a webhook's target URL: userinfo and credential-named query parameters, the rest as it was", () => {
    expect(shownAsCreated('webhook', { target_path: 'https://u:p@x.example/h?token=abc&team=ops' })).toEqual({
      target_path: `https://${REDACTED}:${REDACTED}@x.example/h?token=${REDACTED}&team=ops`,
    });
  });
});

describe('the patch', () => {
  it('turns the old object into the new one, testing the old values first', () => {
    const before = { name: 'a', rights: { x: { versions: ['1'] } }, gone: 1 };
    const after = { name: 'b', rights: { x: { versions: ['1', '2'] }, y: {} } };
    const patch = auditPatch('policy', before, after);
    expect(patch).toContainEqual({ op: 'test', path: '/name', value: 'a' });
    expect(applyPatch(structuredClone(before), patch, true, false).newDocument).toEqual(after);
    expect(applyPatch({}, auditPatch('policy', undefined, after), true, false).newDocument).toEqual(after);
    expect(applyPatch(structuredClone(before), auditPatch('policy', before, undefined), true, false).newDocument).toEqual({});
  });

  it('a changed credential alone is a masked change (test and replace of the mask), never nothing; the same one again is no change', () => {
    const change = { recordId: 'r', type: 'webhook' as const, id: 'h', orgId: 'o', actor: { type: 'admin' as const }, at: '2026-01-01T00:00:00.000Z' };
    const header = entryOf({ ...change, action: 'update', before: { header_map: { a: 'x' } }, after: { header_map: { a: 'y' } } });
    expect(header!.changes).toEqual([
      { op: 'test', path: '/header_map/a', value: REDACTED },
      { op: 'replace', path: '/header_map/a', value: REDACTED },
    ]);
    const target = entryOf({
      ...change,
      action: 'update',
      before: { target_path: 'https://u:p1@x.example' },
      after: { target_path: 'https://u:p2@x.example' },
    });
    expect(target!.changes).toEqual([
      { op: 'test', path: '/target_path', value: `https://${REDACTED}:${REDACTED}@x.example` },
      { op: 'replace', path: '/target_path', value: `https://${REDACTED}:${REDACTED}@x.example` },
    ]);
    expect(JSON.stringify(target)).not.toMatch(/p1|p2/);
    const api = (value: string) => ({
      definition: { oas: { 'x-gw-api-gateway': { middleware: { global: { transformRequestHeaders: { add: [{ name: 'Authorization', value }] } } } } } },
    });
    const rotated = auditPatch('api', api('Bearer one'), api('Bearer two'));
    expect(rotated.map((op) => [op.op, op.path, 'value' in op ? op.value : undefined])).toEqual([
      ['test', '/definition/oas/x-gw-api-gateway/middleware/global/transformRequestHeaders/add/0/value', REDACTED],
      ['replace', '/definition/oas/x-gw-api-gateway/middleware/global/transformRequestHeaders/add/0/value', REDACTED],
    ]);
    expect(entryOf({ ...change, action: 'update', before: { header_map: { a: 'x' } }, after: { header_map: { a: 'x' } } })).toBeUndefined();
  });

  it('a write that changes nothing shown makes no entry; a create always does', () => {
    const change = { recordId: 'r', type: 'webhook' as const, id: 'h', orgId: 'o', actor: { type: 'admin' as const }, at: '2026-01-01T00:00:00.000Z' };
    expect(entryOf({ ...change, action: 'update', before: { name: 'a' }, after: { name: 'a' } })).toBeUndefined();
    expect(entryOf({ ...change, action: 'create', after: {} })).toMatchObject({ action: 'create', changes: [], request_id: null });
    const entry = entryOf({ ...change, action: 'update', before: { name: 'a' }, after: { name: 'b' }, requestId: 'req' });
    expect(entry).toMatchObject({ org_id: 'o', object: { type: 'webhook', id: 'h' }, request_id: 'req', actor: { type: 'admin' } });
    expect(entry!.id).toBe(entryOf({ ...change, action: 'update', before: { name: 'a' }, after: { name: 'c' } })!.id);
  });
});

describe('a user entry without personal data', () => {
  it('e-mail, names and permissions read as the mask, a change inside the permissions as one masked change; the patches still replay', () => {
    const created = { id: 'u1', email_address: 'a@x.example', first_name: 'A', user_permissions: { apis: 'read' }, active: true };
    const updated = { ...created, email_address: 'b@x.example', user_permissions: { apis: 'write', keys: 'read' }, active: false };
    const first = withoutPersonalData(auditPatch('user', undefined, created));
    const second = withoutPersonalData(auditPatch('user', created, updated));
    expect(JSON.stringify([first, second])).not.toMatch(/x\.example|"A"|read|write/);
    const state1 = applyPatch({}, first, true, false).newDocument;
    expect(state1).toEqual({ id: 'u1', email_address: REDACTED, first_name: REDACTED, user_permissions: REDACTED, active: true });
    expect(applyPatch(state1, second, true, false).newDocument).toEqual({ ...state1, active: false });
    expect(second.filter((op) => op.path === '/user_permissions')).toEqual([
      { op: 'test', path: '/user_permissions', value: REDACTED },
      { op: 'replace', path: '/user_permissions', value: REDACTED },
    ]);
  });
});
