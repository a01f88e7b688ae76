import { describe, expect, it } from 'vitest';
import { candidateHashes, limitsFor, policyIdsOf, quotaScopes, requireGrant, shownSession, splitPassword } from '../../shared/domain/key-rules';
import { keyHash } from '../../shared/domain/key-ids';
import { NEVER_RENEWS } from '../../shared/domain/quota';
import type { KeySession } from '../../shared/schemas/keys';

const rights = { a: { api_id: 'a' }, b: { api_id: 'b', limit: { quota_max: 5, quota_renewal_rate: 60, rate: 2, per: 1 } } };

describe('key rules', () => {
  it('requires an access entry or a policy', () => {
    expect(() => requireGrant({})).toThrow(/at least one/);
    expect(() => requireGrant({ access_rights: {} })).toThrow();
    expect(() => requireGrant({ access_rights: { a: { api_id: 'a' } } })).not.toThrow();
    expect(() => requireGrant({ apply_policy_id: 'p' })).not.toThrow();
  });

  it('collects policy ids from both fields without duplicates', () => {
    expect(policyIdsOf({ apply_policies: ['p', 'q'], apply_policy_id: 'p' })).toEqual(['p', 'q']);
    expect(policyIdsOf({ apply_policy_id: '' })).toEqual([]);
  });

  it('tries the hash, then key and hash with auto_guess', () => {
    expect(candidateHashes('k', {})).toEqual([keyHash('k')]);
    expect(candidateHashes('h', { hashed: true })).toEqual(['h']);
    expect(candidateHashes('x', { auto_guess: true })).toEqual([keyHash('x'), 'x']);
  });

  it('splits the password off and keeps the user', () => {
    expect(splitPassword({ basic_auth_data: { user: 'u', password: 'p', hash_type: 'bcrypt' } })).toEqual({
      session: { basic_auth_data: { user: 'u', hash_type: 'bcrypt' } },
      password: 'p',
      username: 'u',
    });
    expect(splitPassword({ alias: 'x' })).toEqual({ session: { alias: 'x' } });
  });

  it('spends per-API limits where an entry has them, else the key-wide ones', () => {
    const s = { access_rights: rights, quota_max: 100, quota_renewal_rate: 10, rate: 9, per: 3 };
    expect(limitsFor(s, 'a')).toEqual({ scope: '', quota_max: 100, quota_renewal_rate: 10, rate: 9, per: 3 });
    expect(limitsFor(s, 'b')).toEqual({ scope: 'b', quota_max: 5, quota_renewal_rate: 60, rate: 2, per: 1 });
    expect(limitsFor({}, 'a')).toMatchObject({ quota_max: -1, quota_renewal_rate: 0 });
    expect(quotaScopes(s)).toEqual([
      { scope: '', renewalRate: 10 },
      { scope: 'b', renewalRate: 60 },
    ]);
  });

  it('shows live figures and never a password', () => {
    const shown = shownSession({ basic_auth_data: { user: 'u', password: 'p' } }, { used: 3, renews: 2000 }, 10, 1000);
    expect(shown).toEqual({ basic_auth_data: { user: 'u' }, quota_remaining: 7, quota_renews: 2000 });
    expect(shownSession<KeySession>({}, { used: 3, renews: 900 }, 10, 1000).quota_remaining).toBe(10);
    expect(shownSession<KeySession>({}, { used: 3, renews: NEVER_RENEWS }, -1, 1000).quota_remaining).toBe(-1);
  });
});
