import { describe, expect, it } from 'vitest';
import { acceptedValues, refreshDue, type SecretVersions } from '../../shared/domain/secret-versions';

const WINDOW = 3600_000;
const v = (previous?: string): SecretVersions => ({
  current: { value: 'new', createdMs: 10_000 },
  previous: previous === undefined ? undefined : { value: previous, createdMs: 0 },
  readMs: 20_000,
});

describe('the two-version window (docs/operating/security.md "Rotate a deployment secret")', () => {
  it("accepts the previous value until the window, counted from the current version's creation, closes", () => {
    expect(acceptedValues(v('old'), WINDOW, 10_000 + WINDOW - 1)).toEqual(['new', 'old']);
    expect(acceptedValues(v('old'), WINDOW, 10_000 + WINDOW)).toEqual(['new']);
  });

  it('accepts only the current value with no previous version, a window of 0, or a previous equal to it', () => {
    expect(acceptedValues(v(), WINDOW, 10_000)).toEqual(['new']);
    expect(acceptedValues(v('old'), 0, 10_000)).toEqual(['new']);
    expect(acceptedValues(v('new'), WINDOW, 10_000)).toEqual(['new']);
  });

  it('is due for a re-read once the refresh interval has passed since the last read', () => {
    expect(refreshDue(v(), 300_000, 20_000 + 299_999)).toBe(false);
    expect(refreshDue(v(), 300_000, 20_000 + 300_000)).toBe(true);
  });
});
