import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytesWithin } from '../../shared/lib/json-size';

describe('jsonBytesWithin', () => {
  it('counts exactly the UTF-8 bytes of JSON.stringify for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonBytesWithin(v, Number.MAX_SAFE_INTEGER)).toBe(Buffer.byteLength(JSON.stringify(v)));
      }),
      { seed: 20, numRuns: 500 },
    );
    const odd = { a: undefined, b: [undefined, () => 1], c: 'é✓"\n\u0001', d: -0, e: 1e21, f: null };
    expect(jsonBytesWithin(odd, 1e9)).toBe(Buffer.byteLength(JSON.stringify(odd)));
  });

  it('stops at the limit: shared values are counted each time they appear, cycles end', () => {
    const big = 'x'.repeat(1_000_000);
    const shared = Array(1000).fill(big); // 1 GB of JSON, 8 KB in memory
    expect(jsonBytesWithin(shared, 5 * 1024 * 1024)).toBeUndefined();
    expect(jsonBytesWithin(Array(5).fill(big), 5 * 1024 * 1024)).toBe(5 * 1_000_002 + 6);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(jsonBytesWithin(cycle, 1000)).toBeUndefined();
  });
});
