/**
 * The pure rules behind the dashboard's gate (contract §9, docs/reference/limits.md): what a user's
 * user_permissions grant on a group, the per-organisation limits' settings, and their windows.
 */
import { describe, expect, it } from 'vitest';
import { orgLimitWindow, parseOrgLimits } from '../../shared/domain/org-limits';
import { allows, levelOn } from '../../shared/domain/permissions';
import { ORG_LIMITS } from '../../shared/limits';
import { userPermissionsSchema } from '../../shared/schemas/permissions';

describe('user_permissions', () => {
  it('absent, {} and IsAdmin grant write on every group', () => {
    for (const perms of [undefined, {}, { IsAdmin: 'admin' }, { IsAdmin: 'admin', hooks: 'deny' }]) {
      expect(levelOn(perms, 'hooks'), JSON.stringify(perms)).toBe('write');
      expect(allows(perms, 'audit', 'write')).toBe(true);
    }
  });

  it('otherwise a group has its own level, and an unlisted group (or a stored value other than read or write) is deny', () => {
    const perms = { apis: 'read', hooks: 'write', keys: 'deny', assets: 'admin' };
    expect(['apis', 'hooks', 'keys', 'assets', 'users'].map((g) => levelOn(perms, g as never))).toEqual(['read', 'write', 'deny', 'deny', 'deny']);
    expect(levelOn({ IsAdmin: 'yes' }, 'hooks')).toBe('deny');
  });

  it('a read needs read or write; a change needs write', () => {
    expect(allows({ hooks: 'read' }, 'hooks', 'read')).toBe(true);
    expect(allows({ hooks: 'read' }, 'hooks', 'write')).toBe(false);
    expect(allows({ hooks: 'write' }, 'hooks', 'read')).toBe(true);
    expect(allows({ hooks: 'deny' }, 'hooks', 'read')).toBe(false);
  });

  it('takes only known groups with read, write or deny, and IsAdmin "admin"', () => {
    expect(userPermissionsSchema.safeParse({ apis: 'read', audit: 'deny', IsAdmin: 'admin' }).success).toBe(true);
    expect(userPermissionsSchema.safeParse({ billing: 'read' }).success).toBe(false);
    expect(userPermissionsSchema.safeParse({ portal: 'read' }).success).toBe(true);
    expect(userPermissionsSchema.safeParse({ apis: 'admin' }).success).toBe(false);
    expect(userPermissionsSchema.safeParse({ IsAdmin: 'write' }).success).toBe(false);
  });
});

describe('per-organisation limits', () => {
  it('default to 1,200 reads, 600 writes, 60 webhook tests and 600 portal requests per window; the environment may set each', () => {
    expect(parseOrgLimits({})).toEqual({ reads: 1200, writes: 600, hookTest: 60, portal: 600 });
    expect(parseOrgLimits({ ORG_WRITE_LIMIT: ' 25 ', ORG_HOOK_TEST_LIMIT: '', ORG_READ_LIMIT: '7', ORG_PORTAL_LIMIT: '9' })).toEqual({
      reads: 7,
      writes: 25,
      hookTest: ORG_LIMITS.hookTest.perWindow,
      portal: 9,
    });
    expect(parseOrgLimits({ ORG_HOOK_TEST_LIMIT: '1000000' }).hookTest).toBe(1_000_000);
  });

  it.each(['0', '-1', '1.5', 'ten', '1000001', '1e3'])('refuses %s, naming the variable', (value) => {
    expect(() => parseOrgLimits({ ORG_WRITE_LIMIT: value })).toThrow(new RegExp(`^ORG_WRITE_LIMIT: "${value.replace('.', '\\.')}" is not a whole number`));
  });

  it('counts in fixed 60-second windows aligned to the minute; Retry-After is the whole seconds left, at least 1', () => {
    const start = 1_800_000_000 - (1_800_000_000 % 60);
    expect(orgLimitWindow(start * 1000)).toEqual({ start, end: start + 60, retryAfter: 60 });
    expect(orgLimitWindow(start * 1000 + 15_000)).toEqual({ start, end: start + 60, retryAfter: 45 });
    expect(orgLimitWindow(start * 1000 + 15_001).retryAfter).toBe(45);
    expect(orgLimitWindow(start * 1000 + 59_999)).toEqual({ start, end: start + 60, retryAfter: 1 });
    expect(orgLimitWindow((start + 60) * 1000).start).toBe(start + 60);
  });
});
