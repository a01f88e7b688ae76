import { describe, expect, it } from 'vitest';
import { seal, unseal } from '../../shared/domain/sealed';

describe('sealed replies', () => {
  it('opens only with the same secret and context, and detects tampering', () => {
    const sealed = seal('{"key":"abc"}', 'idem-1', 'scope-a');
    expect(sealed).not.toContain('abc');
    expect(unseal(sealed, 'idem-1', 'scope-a')).toBe('{"key":"abc"}');
    expect(unseal(sealed, 'idem-2', 'scope-a')).toBeUndefined();
    expect(unseal(sealed, 'idem-1', 'scope-b')).toBeUndefined();
    const [iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0]! ^= 1;
    expect(unseal([iv, tag, flipped.toString('base64url')].join('.'), 'idem-1', 'scope-a')).toBeUndefined();
  });
});
