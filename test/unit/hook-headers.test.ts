/** Webhook header values are write-only (contract §9): masked on read, kept when sent back masked. */
import { describe, expect, it } from 'vitest';
import { maskCredentials } from '../../shared/domain/credential-members';
import { keepMaskedHeaderValues } from '../../shared/domain/hook-headers';
import { HEADER_VALUE_MASK as M } from '../../shared/schemas/webhook-headers';

describe('webhook header values', () => {
  it('reads show every value as the mask, names kept', () => {
    expect(maskCredentials('webhook', { header_map: { Authorization: 'Bearer s', 'x-a': '' } })).toEqual({ header_map: { Authorization: M, 'x-a': M } });
  });

  it('a masked value keeps the stored value of that name (any case); others are taken as sent', () => {
    expect(keepMaskedHeaderValues({ authorization: M, 'x-a': 'new', 'x-b': 'b' }, { Authorization: 'Bearer s', 'x-a': 'old' })).toEqual({
      authorization: 'Bearer s',
      'x-a': 'new',
      'x-b': 'b',
    });
  });

  it('a mask with nothing stored under its name is 400 naming it; limits are checked with the kept values', () => {
    expect(() => keepMaskedHeaderValues({ 'x-new': M }, {})).toThrow(
      expect.objectContaining({ status: 400, details: [expect.objectContaining({ path: 'body.header_map.x-new' })] }),
    );
    const stored = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`x-${i}`, 'v'.repeat(8000)]));
    expect(() => keepMaskedHeaderValues({ 'x-0': M, 'x-1': M, 'x-2': M }, stored)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
