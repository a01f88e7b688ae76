import { describe, expect, it } from 'vitest';
import { hookInputSchema } from '../../shared/schemas/hooks';
import { assertWriteFits, itemSize, MAX_ITEM_BYTES, numberSize } from '../../shared/store/db/item-size';

describe('DynamoDB item size (known sizes)', () => {
  it('counts names and strings in UTF-8 bytes, booleans and null as 1', () => {
    expect(itemSize({})).toBe(0);
    expect(itemSize({ a: 'abc' })).toBe(4);
    expect(itemSize({ é: '☃' })).toBe(2 + 3);
    expect(itemSize({ t: true, f: false, n: null })).toBe(6);
    expect(itemSize({ b: Buffer.from([1, 2, 3]) })).toBe(4);
  });

  it('counts numbers as base-100 digits aligned on the decimal point, plus one, plus one when negative', () => {
    expect([0, 7, 10, 99, 100, 123, 123456, 1.5, 12.5, 0.15, 0.001, 1e-7, 1e15, 12345678901234].map(numberSize)).toEqual([
      1, 2, 2, 2, 2, 3, 4, 3, 3, 2, 2, 2, 2, 8,
    ]);
    expect([-7, -1.5, -0.000123, -9007199254740991].map(numberSize)).toEqual([3, 4, 4, 10]);
    expect(numberSize('1000.0001')).toBe(5);
  });

  it('adds 3 bytes per list or map and 1 per element; sets are their elements; undefined members are dropped', () => {
    expect(itemSize({ m: {} })).toBe(1 + 3);
    expect(itemSize({ l: [] })).toBe(1 + 3);
    expect(itemSize({ m: { x: 'ab' } })).toBe(1 + 3 + (1 + 1 + 2));
    expect(itemSize({ l: [1, 'a', { k: true }] })).toBe(1 + 3 + (1 + 2) + (1 + 1) + (1 + 3 + (1 + 1 + 1)));
    expect(itemSize({ s: new Set(['a', 'bb']), n: new Set([1, 22]) })).toBe(1 + 3 + 1 + 4);
    expect(itemSize({ gone: undefined, m: { gone: undefined } })).toBe(1 + 3);
  });

  it("refuses a transaction's Put over 400 KB, and a transaction over 4 MB in all", () => {
    const item = (kb: number) => ({ PK: 'a', SK: 'b', entity: 'policy', s: 'x'.repeat(kb * 1024) });
    expect(() => assertWriteFits({ TransactItems: [{ Put: { Item: item(401) } }] })).toThrow(/The policy is larger than DynamoDB's 400 KB item limit/);
    const eleven = Array.from({ length: 11 }, () => ({ Put: { Item: item(390) } }));
    expect(() => assertWriteFits({ TransactItems: eleven })).toThrow(/larger than DynamoDB's 4 MB transaction limit/);
    expect(() => assertWriteFits({ TransactItems: eleven.slice(1) })).not.toThrow();
    expect(() => assertWriteFits({ RequestItems: { t: [{ PutRequest: { Item: item(401) } }] } })).toThrow(/400 KB/);
    expect(() => assertWriteFits({ Item: { ...item(401), entity: 'user' } })).toThrow(/The user is larger/);
  });
});

describe('a webhook cannot reach the item limit', () => {
  it('a hook with every member at its limit, in the widest UTF-8, stays under a tenth of 400 KB', () => {
    const wide = (n: number) => '\u20ac'.repeat(n); // 3 bytes each
    const headers = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x-${String(i).padStart(2, '0')}${'h'.repeat(250)}`, '']));
    const room = 16_384 - Object.keys(headers).join('').length;
    for (const [i, name] of Object.keys(headers).entries()) headers[name] = '\u00ff'.repeat(Math.floor(room / 50) + (i < room % 50 ? 1 : 0));
    const body = hookInputSchema.parse({
      name: wide(1024),
      method: 'POST',
      target_path: `https://hooks.example/${wide(2048 - 22)}`,
      header_map: headers,
      template_path: wide(1024),
      event_timeout: 3600,
    });
    // What the store adds: ids, organisation, times, version and index keys, well under 1 KB.
    const stored = {
      ...body,
      PK: `ORG#${'o'.repeat(128)}#HOOK#${'h'.repeat(24)}`,
      SK: 'HOOK',
      GSI1PK: 'o'.repeat(140),
      GSI1SK: 'x'.repeat(60),
      id: 'h'.repeat(24),
      org_id: 'o'.repeat(128),
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      version: 2 ** 40,
    };
    expect(itemSize(stored)).toBeLessThan(MAX_ITEM_BYTES / 10);
  });
});
