import { describe, expect, it } from 'vitest';
import { openCursor, openCursorText, packStrings, sealCursor, sealCursorText, unpackStrings } from '../../shared/domain/cursors';
import { textSortKey } from '../../shared/store/db/storage-key';
import { replyKey, seal, unseal } from '../../shared/domain/sealed';
import { deriveKey, keyedHash } from '../../shared/domain/service-keys';

const serviceA = deriveKey('service-secret-a', 'idempotent reply');
const serviceB = deriveKey('service-secret-b', 'idempotent reply');

describe('sealed replies', () => {
  it('opens only with the same key and context, and detects tampering', () => {
    const key = replyKey(serviceA, 'idem-1', 'scope-a');
    const sealed = seal('{"key":"abc"}', key, 'scope-a');
    expect(sealed).not.toContain('abc');
    expect(unseal(sealed, key, 'scope-a')).toBe('{"key":"abc"}');
    expect(unseal(sealed, replyKey(serviceA, 'idem-2', 'scope-a'), 'scope-a')).toBeUndefined();
    expect(unseal(sealed, replyKey(serviceA, 'idem-1', 'scope-b'), 'scope-a')).toBeUndefined();
    expect(unseal(sealed, key, 'scope-b')).toBeUndefined();
    const [iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0]! ^= 1;
    expect(unseal([iv, tag, flipped.toString('base64url')].join('.'), key, 'scope-a')).toBeUndefined();
    expect(unseal('a.b', key, 'scope-a')).toBeUndefined();
  });

  it('needs the service key as well as the Idempotency-Key: a reply sealed under key "1" does not open with "1" alone', () => {
    const sealed = seal('{"key":"secret-shown-once"}', replyKey(serviceA, '1', 'POST /gw/keys/create#gateway'), 'POST /gw/keys/create#gateway');
    // What an attacker holding the table could try: the old derivation (HKDF of the Idempotency-Key
    // alone), and the new one under any service key but the real one.
    expect(unseal(sealed, replyKey(serviceB, '1', 'POST /gw/keys/create#gateway'), 'POST /gw/keys/create#gateway')).toBeUndefined();
    expect(unseal(sealed, replyKey(Buffer.alloc(0), '1', 'POST /gw/keys/create#gateway'), 'POST /gw/keys/create#gateway')).toBeUndefined();
    expect(unseal(sealed, replyKey(serviceA, '1', 'POST /gw/keys/create#gateway'), 'POST /gw/keys/create#gateway')).toContain('secret-shown-once');
  });
});

describe('service keys', () => {
  it('derives a different key per purpose and per secret', () => {
    const keys = [deriveKey('s', 'cursor'), deriveKey('s', 'idempotency fingerprint'), deriveKey('s', 'idempotency record'), deriveKey('t', 'cursor')];
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(4);
    expect(keys.every((k) => k.length === 32)).toBe(true);
  });

  it('keyed hashes separate their parts: moving a boundary changes the hash', () => {
    const k = deriveKey('s', 'idempotency fingerprint');
    expect(keyedHash(k, 'ab', 'c')).not.toBe(keyedHash(k, 'a', 'bc'));
    expect(keyedHash(k, 'a\nb')).not.toBe(keyedHash(k, 'a', 'b'));
    expect(keyedHash(k, 'x')).toBe(keyedHash(k, 'x'));
    expect(keyedHash(k, 'x')).not.toBe(keyedHash(deriveKey('t', 'idempotency fingerprint'), 'x'));
  });
});

describe('cursors', () => {
  const key = deriveKey('s', 'cursor');

  it('round-trip within their list, and name no storage attribute', () => {
    const c = sealCursor(['ORG#acme#USERS', '2024-01-01T00:00:00.000Z#u1'], key, 'list-1');
    // The sealed bytes, not their base64url text: random base64 spells "PK" or "GSI" now and then.
    const sealed = Buffer.concat(c.split('.').map((part) => Buffer.from(part, 'base64url'))).toString('latin1');
    expect(sealed).not.toMatch(/ORG#acme|USERS|2024-01-01/);
    expect(openCursor(c, key, 'list-1')).toEqual(['ORG#acme#USERS', '2024-01-01T00:00:00.000Z#u1']);
    expect(sealCursor(1, key, 'list-1')).not.toBe(sealCursor(1, key, 'list-1'));
  });

  it('refuse (400) another list, another service key, an altered cursor and anything not issued', () => {
    const c = sealCursor(['a', 'b'], key, 'list-1');
    const refused = (cursor: string, k = key, list = 'list-1') => {
      try {
        openCursor(cursor, k, list);
        return false;
      } catch (e) {
        return (e as { status?: number }).status === 400;
      }
    };
    expect(refused(c, key, 'list-2')).toBe(true);
    expect(refused(c, deriveKey('t', 'cursor'))).toBe(true);
    // One character changed (it must differ: the sealed cursor is random, and 1 in 64 already had an A there).
    const altered = c.slice(0, -2) + (c.at(-2) === 'A' ? 'B' : 'A') + c.slice(-1);
    expect(altered).not.toBe(c);
    expect(refused(altered)).toBe(true);
    for (const junk of ['', '.', 'not-a-cursor', Buffer.from('{"p":"x","k":{}}').toString('base64url'), 'a.b.c.d', '%00'])
      expect(refused(junk), junk).toBe(true);
  });

  it('carry start keys packed as they are: any strings round-trip, and the largest key DynamoDB holds fits 2,048 characters', () => {
    const values = ['', '12:ab', ':', '0:', '€'.repeat(5), '"\\\u0001', 'API#x'];
    expect(unpackStrings(packStrings(values))).toEqual(values);
    for (const junk of ['x', '3:ab', '-1:a', ':a', '1a', '99999999:a']) expect(unpackStrings(junk), junk).toBeUndefined();
    // The largest start key a list hands out: an API of the longest id, and a name sort key at
    // DynamoDB's 1,024 bytes of the text JSON would escape most (quotes, control characters).
    for (const text of ['\u0001'.repeat(5000), '"'.repeat(5000), '€'.repeat(5000), '𝄞'.repeat(5000)]) {
      const start = [`API#${'i'.repeat(128)}`, 'API', textSortKey(text, 'f'.repeat(24))];
      const c = sealCursorText(packStrings(start), key, 'list-1');
      expect(c.length).toBeLessThanOrEqual(2048);
      expect(unpackStrings(openCursorText(c, key, 'list-1'))).toEqual(start);
    }
  });
});
