import { describe, expect, it } from 'vitest';
import { activePartitions, applyPolicies } from '../../shared/domain/policies';
import { policyImportSchema, policySchema, type Policy } from '../../shared/schemas/policies';
import type { KeySession } from '../../shared/schemas/keys';

const key = (over: Partial<KeySession> = {}): KeySession => ({
  org_id: 'org1',
  access_rights: { own: { api_id: 'own', api_name: 'Own', versions: ['Default'] } },
  rate: 5,
  per: 60,
  allowance: 5,
  quota_max: 10,
  quota_renewal_rate: 3600,
  throttle_interval: -1,
  throttle_retry_limit: -1,
  max_query_depth: 3,
  tags: ['key-tag'],
  ...over,
});

const policy = (over: Partial<Policy> & { id: string }): Policy => ({
  access_rights: { a: { api_id: 'a', api_name: 'A', versions: ['v1'] } },
  rate: 100,
  per: 1,
  quota_max: 1000,
  quota_renewal_rate: 86400,
  throttle_interval: 2,
  throttle_retry_limit: 3,
  max_query_depth: 7,
  tags: ['pol-tag'],
  ...over,
});

describe('activePartitions', () => {
  it('treats no partition set (or all false) as acl, quota, rate_limit and complexity', () => {
    for (const p of [undefined, {}, { acl: false, quota: false, rate_limit: false, complexity: false, per_api: false }]) {
      expect([...activePartitions(p)].sort()).toEqual(['acl', 'complexity', 'quota', 'rate_limit']);
    }
  });
  it('takes only the partitions set', () => {
    expect([...activePartitions({ quota: true, rate_limit: true })].sort()).toEqual(['quota', 'rate_limit']);
  });
});

describe('applyPolicies: one policy per partition combination', () => {
  const p = policy({ id: 'p1' });
  const cases: Array<[string, Policy['partitions'], { acl: boolean; quota: boolean; rate: boolean; depth: boolean }]> = [
    ['none set', undefined, { acl: true, quota: true, rate: true, depth: true }],
    ['acl', { acl: true }, { acl: true, quota: false, rate: false, depth: false }],
    ['quota', { quota: true }, { acl: false, quota: true, rate: false, depth: false }],
    ['rate_limit', { rate_limit: true }, { acl: false, quota: false, rate: true, depth: false }],
    ['complexity', { complexity: true }, { acl: false, quota: false, rate: false, depth: true }],
    ['acl+quota', { acl: true, quota: true }, { acl: true, quota: true, rate: false, depth: false }],
    ['acl+rate_limit', { acl: true, rate_limit: true }, { acl: true, quota: false, rate: true, depth: false }],
    ['quota+rate_limit', { quota: true, rate_limit: true }, { acl: false, quota: true, rate: true, depth: false }],
    ['acl+quota+rate_limit+complexity', { acl: true, quota: true, rate_limit: true, complexity: true }, { acl: true, quota: true, rate: true, depth: true }],
  ];
  it.each(cases)('%s', (_name, partitions, expected) => {
    const out = applyPolicies(key(), [{ ...p, partitions }]);
    expect(Object.keys(out.access_rights ?? {})).toEqual(expected.acl ? ['a'] : ['own']);
    expect([out.quota_max, out.quota_renewal_rate]).toEqual(expected.quota ? [1000, 86400] : [10, 3600]);
    expect([out.rate, out.per, out.allowance, out.throttle_interval, out.throttle_retry_limit]).toEqual(
      expected.rate ? [100, 1, 100, 2, 3] : [5, 60, 5, -1, -1],
    );
    expect(out.max_query_depth).toBe(expected.depth ? 7 : 3);
    // Tags are unioned whatever the partitions.
    expect(out.tags).toEqual(['key-tag', 'pol-tag']);
  });

  it('per_api grants the rights with the limits inside each entry and leaves key-wide limits', () => {
    const out = applyPolicies(key(), [
      policy({
        id: 'pa',
        partitions: { per_api: true },
        access_rights: {
          a: { api_id: 'a', limit: { rate: 9, per: 3 } },
          b: { api_id: 'b' },
        },
      }),
    ]);
    expect(Object.keys(out.access_rights ?? {}).sort()).toEqual(['a', 'b']);
    expect(out.access_rights?.a?.limit).toMatchObject({ rate: 9, per: 3, quota_max: 1000 });
    expect(out.access_rights?.b?.limit).toMatchObject({ rate: 100, per: 1, quota_max: 1000, max_query_depth: 7 });
    expect([out.rate, out.quota_max]).toEqual([5, 10]);
  });
});

describe('applyPolicies: several policies', () => {
  it('unions rights, versions and allowed URLs', () => {
    const out = applyPolicies(key(), [
      policy({ id: 'p1', partitions: { acl: true }, access_rights: { a: { api_id: 'a', versions: ['v1'], allowed_urls: [{ url: '/x', methods: ['GET'] }] } } }),
      policy({
        id: 'p2',
        partitions: { acl: true },
        access_rights: {
          a: {
            api_id: 'a',
            versions: ['v2', 'v1'],
            allowed_urls: [
              { url: '/x', methods: ['POST'] },
              { url: '/y', methods: ['GET'] },
            ],
          },
          b: { api_id: 'b', versions: ['Default'] },
        },
      }),
    ]);
    expect(Object.keys(out.access_rights ?? {}).sort()).toEqual(['a', 'b']);
    expect(out.access_rights?.a?.versions).toEqual(['v1', 'v2']);
    expect(out.access_rights?.a?.allowed_urls).toEqual([
      { url: '/x', methods: ['GET', 'POST'] },
      { url: '/y', methods: ['GET'] },
    ]);
  });

  it('keeps the highest limits, rate by requests per second', () => {
    const out = applyPolicies(key(), [
      policy({ id: 'p1', rate: 100, per: 60, quota_max: 50, quota_renewal_rate: 60, max_query_depth: 2, throttle_interval: 5 }),
      policy({ id: 'p2', rate: 10, per: 1, quota_max: 500, quota_renewal_rate: 30, max_query_depth: 9, throttle_interval: 1 }),
    ]);
    // 10/1 s beats 100/60 s even though 100 > 10.
    expect([out.rate, out.per]).toEqual([10, 1]);
    expect([out.quota_max, out.quota_renewal_rate, out.max_query_depth, out.throttle_interval]).toEqual([500, 60, 9, 5]);
  });

  it('treats -1 as unlimited, the highest', () => {
    const out = applyPolicies(key(), [
      policy({ id: 'p1', quota_max: -1, max_query_depth: -1, rate: -1, per: -1 }),
      policy({ id: 'p2', quota_max: 1_000_000, max_query_depth: 100, rate: 1_000_000, per: 1 }),
    ]);
    expect([out.quota_max, out.max_query_depth, out.rate]).toEqual([-1, -1, -1]);
    const reversed = applyPolicies(key(), [policy({ id: 'p2', quota_max: 1_000_000 }), policy({ id: 'p1', quota_max: -1 })]);
    expect(reversed.quota_max).toBe(-1);
  });

  it('takes each part from the policies that set it', () => {
    const out = applyPolicies(key(), [
      policy({ id: 'rights', partitions: { acl: true }, rate: 1, quota_max: 1 }),
      policy({ id: 'limits', partitions: { quota: true, rate_limit: true }, access_rights: { z: { api_id: 'z' } }, rate: 50, per: 10, quota_max: 70 }),
    ]);
    expect(Object.keys(out.access_rights ?? {})).toEqual(['a']);
    expect([out.rate, out.per, out.quota_max]).toEqual([50, 10, 70]);
  });

  it('marks the key inactive when any policy is inactive, and merges meta_data', () => {
    const out = applyPolicies(key({ meta_data: { a: 1, b: 1 } }), [policy({ id: 'p1', meta_data: { b: 2 } }), policy({ id: 'p2', is_inactive: true })]);
    expect(out.is_inactive).toBe(true);
    expect(out.meta_data).toEqual({ a: 1, b: 2 });
  });

  it('does not change its input, and returns the key unchanged without policies', () => {
    const k = key();
    const snapshot = structuredClone(k);
    applyPolicies(k, [policy({ id: 'p1' })]);
    expect(k).toEqual(snapshot);
    expect(applyPolicies(k, [])).toEqual(snapshot);
  });
});

describe('policySchema', () => {
  it('requires an id with the id charset', () => {
    expect(policySchema.safeParse({ name: 'x' }).success).toBe(false);
    expect(policySchema.safeParse({ id: 'bad id' }).success).toBe(false);
    expect(policySchema.safeParse({ id: 'gold.plan-1' }).success).toBe(true);
  });
  it('rejects per_api mixed with another partition and bad smoothing', () => {
    expect(policySchema.safeParse({ id: 'p', partitions: { per_api: true, quota: true } }).success).toBe(false);
    expect(policySchema.safeParse({ id: 'p', smoothing: { delay: 0 } }).success).toBe(false);
    expect(policySchema.safeParse({ id: 'p', smoothing: { delay: 1, step: 1, threshold: 1, trigger: 0.5 } }).success).toBe(true);
  });
  it('keeps unknown members', () => {
    const parsed = policySchema.parse({ id: 'p', post_expiry_action: 'delete' });
    expect(parsed).toMatchObject({ post_expiry_action: 'delete' });
  });
});

describe('policyImportSchema', () => {
  it('keeps ids, taking _id when id is blank', () => {
    const parsed = policyImportSchema.parse({ Data: [{ id: 'a' }, { id: '', _id: '5ead7120575961000181867e' }, { id: 'c' }], Pages: 1 });
    expect(parsed.Data.map((p) => p.id)).toEqual(['a', '5ead7120575961000181867e', 'c']);
  });
  it('fails as a whole when one policy is invalid or ids repeat', () => {
    const bad = policyImportSchema.safeParse({ Data: [{ id: 'a' }, { id: 'b', rate: 'fast' }, { id: 'c' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['Data', 1, 'rate']);
    expect(policyImportSchema.safeParse({ Data: [{ id: 'a' }, { id: 'a' }] }).success).toBe(false);
  });
});
