/** If-Match (contract §3, RFC 9110 §13.1.1): strong comparison, `*`, lists. */
import { describe, expect, it } from 'vitest';
import { ifMatchAllows, parseIfMatch } from '../../shared/domain/if-match';

describe('parseIfMatch', () => {
  it('takes *, one tag, a list, and a bare number as its tag', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('*')).toBe('*');
    expect(parseIfMatch(' * ')).toBe('*');
    expect(parseIfMatch('"3"')).toEqual([3]);
    expect(parseIfMatch('3')).toEqual([3]);
    expect(parseIfMatch('"1", "2"')).toEqual([1, 2]);
    expect(parseIfMatch('"1","2" ,"3"')).toEqual([1, 2, 3]);
  });

  it('drops weak tags, which never match under strong comparison', () => {
    expect(parseIfMatch('W/"1"')).toEqual([]);
    expect(parseIfMatch('W/"1", "2"')).toEqual([2]);
  });

  it('refuses what is no tag of this service (400)', () => {
    for (const bad of ['', 'abc', '"abc"', '"1', '1"', '"1",', '*, "1"', 'W/*', '"1234567890123456"', Array(21).fill('"1"').join(',')]) {
      expect(() => parseIfMatch(bad), bad).toThrow(expect.objectContaining({ status: 400 }));
    }
  });
});

describe('ifMatchAllows', () => {
  it('no header and * allow any version; a list any of its versions; an empty list none', () => {
    expect(ifMatchAllows(undefined, 4)).toBe(true);
    expect(ifMatchAllows('*', 4)).toBe(true);
    expect(ifMatchAllows(parseIfMatch('"1", "2"'), 2)).toBe(true);
    expect(ifMatchAllows(parseIfMatch('"1", "2"'), 3)).toBe(false);
    expect(ifMatchAllows(parseIfMatch('W/"2"'), 2)).toBe(false);
  });
});
