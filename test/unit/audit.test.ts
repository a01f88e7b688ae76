/**
 * The audit trail's pure rules (contract §12): what redaction hides, and that the patch applies
 * to the old object exactly, carrying the old values in its tests.
 */
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { auditPatch, redact, REDACTED } from '../../shared/domain/audit';
import { entryOf } from '../../shared/services/audit';

const { applyPatch } = fastJsonPatch;

describe('redaction', () => {
  it('hides credentials wherever they are named, keeps the key hash that names a key', () => {
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
    expect(redact(stored)).toEqual({
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

  it('hides credential header values in header maps (every value of a webhook header_map)', () => {
    const api = { global_headers: { Authorization: 'Bearer x', 'X-Api-Key': 'k', Cookie: 'c', 'X-Trace': 'on' } };
    expect(redact(api)).toEqual({ global_headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, Cookie: REDACTED, 'X-Trace': 'on' } });
    expect(redact({ header_map: { 'x-trace': 'on' } }, { allHeaderValues: true })).toEqual({ header_map: { 'x-trace': REDACTED } });
  });
});

describe('the patch', () => {
  it('turns the old object into the new one, testing the old values first', () => {
    const before = { name: 'a', rights: { x: { versions: ['1'] } }, gone: 1 };
    const after = { name: 'b', rights: { x: { versions: ['1', '2'] }, y: {} } };
    const patch = auditPatch(before, after);
    expect(patch).toContainEqual({ op: 'test', path: '/name', value: 'a' });
    expect(applyPatch(structuredClone(before), patch, true, false).newDocument).toEqual(after);
    expect(applyPatch({}, auditPatch(undefined, after), true, false).newDocument).toEqual(after);
    expect(applyPatch(structuredClone(before), auditPatch(before, undefined), true, false).newDocument).toEqual({});
  });

  it('a write that changes nothing shown makes no entry; a create always does', () => {
    const change = { recordId: 'r', type: 'webhook' as const, id: 'h', orgId: 'o', actor: { type: 'admin' as const }, at: '2026-01-01T00:00:00.000Z' };
    expect(entryOf({ ...change, action: 'update', before: { header_map: { a: 'x' } }, after: { header_map: { a: 'y' } } })).toBeUndefined();
    expect(entryOf({ ...change, action: 'create', after: {} })).toMatchObject({ action: 'create', changes: [], request_id: null });
    const entry = entryOf({ ...change, action: 'update', before: { name: 'a' }, after: { name: 'b' }, requestId: 'req' });
    expect(entry).toMatchObject({ org_id: 'o', object: { type: 'webhook', id: 'h' }, request_id: 'req', actor: { type: 'admin' } });
    expect(entry!.id).toBe(entryOf({ ...change, action: 'update', before: { name: 'a' }, after: { name: 'c' } })!.id);
  });
});
