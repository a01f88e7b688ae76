/**
 * Policy application (contract §6): a key with policies takes access rights, rate, quota,
 * throttle, query depth and tags from them. Pure: the caller loads the policies.
 */
import type { AccessDefinition, AccessRights, ApiLimit, KeySession } from '../schemas/keys';
import type { Partitions, Policy } from '../schemas/policies';
import { UNLIMITED } from './quota';

type Part = 'acl' | 'quota' | 'rate_limit' | 'complexity' | 'per_api';

/** No partition set means the policy sets everything except per-API limits. */
export function activePartitions(partitions: Partitions | undefined): Set<Part> {
  const all: Part[] = ['acl', 'quota', 'rate_limit', 'complexity', 'per_api'];
  const set = new Set(all.filter((p) => partitions?.[p] === true));
  // per_api implies the rights (its limits live inside them) and their limits.
  if (set.has('per_api')) return new Set<Part>(['per_api', 'acl']);
  return set.size ? set : new Set<Part>(['acl', 'quota', 'rate_limit', 'complexity']);
}

/** Higher of two limits where a value at or below `unlimitedAt` means no limit (the highest). */
function highest(a: number | undefined, b: number | undefined, unlimited: (v: number) => boolean): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (unlimited(a) || unlimited(b)) return UNLIMITED;
  return Math.max(a, b);
}
const quotaUnlimited = (v: number) => v <= 0;
const depthUnlimited = (v: number) => v < 0;
const never = () => false;

/** Requests per second a rate/per pair allows; at or below 0 in either is no limit. */
function throughput(rate: number | undefined, per: number | undefined): number | undefined {
  if (rate === undefined) return undefined;
  if (rate <= 0 || per === undefined || per <= 0) return Infinity;
  return rate / per;
}

interface Limits {
  rate?: number | undefined;
  per?: number | undefined;
  smoothing?: KeySession['smoothing'];
  throttle_interval?: number | undefined;
  throttle_retry_limit?: number | undefined;
  quota_max?: number | undefined;
  quota_renewal_rate?: number | undefined;
  max_query_depth?: number | undefined;
}

function mergeRate(into: Limits, from: Limits): void {
  const current = throughput(into.rate, into.per);
  const offered = throughput(from.rate, from.per);
  if (offered !== undefined && (current === undefined || offered > current)) {
    into.rate = from.rate;
    into.per = from.per;
    if (from.smoothing !== undefined) into.smoothing = from.smoothing;
  }
  into.throttle_interval = highest(into.throttle_interval, from.throttle_interval, never);
  into.throttle_retry_limit = highest(into.throttle_retry_limit, from.throttle_retry_limit, never);
}

function mergeQuota(into: Limits, from: Limits): void {
  into.quota_max = highest(into.quota_max, from.quota_max, quotaUnlimited);
  into.quota_renewal_rate = highest(into.quota_renewal_rate, from.quota_renewal_rate, never);
}

function mergeDepth(into: Limits, from: Limits): void {
  into.max_query_depth = highest(into.max_query_depth, from.max_query_depth, depthUnlimited);
}

function union<T>(a: readonly T[] | null | undefined, b: readonly T[] | null | undefined): T[] | undefined {
  if (!a && !b) return undefined;
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

type AllowedUrl = NonNullable<AccessDefinition['allowed_urls']>[number];

function mergeUrls(a: AccessDefinition['allowed_urls'], b: AccessDefinition['allowed_urls']): AllowedUrl[] | undefined {
  if (!a && !b) return undefined;
  const byUrl = new Map<string, AllowedUrl>();
  for (const entry of [...(a ?? []), ...(b ?? [])]) {
    const seen = byUrl.get(entry.url);
    byUrl.set(entry.url, seen ? { ...seen, methods: union(seen.methods, entry.methods) ?? null } : { ...entry });
  }
  return [...byUrl.values()];
}

function mergeEntry(a: AccessDefinition | undefined, b: AccessDefinition): AccessDefinition {
  if (!a) return structuredClone(b);
  const merged: AccessDefinition = { ...a, ...b, api_name: b.api_name ?? a.api_name };
  const versions = union(a.versions, b.versions);
  if (versions) merged.versions = versions;
  const urls = mergeUrls(a.allowed_urls, b.allowed_urls);
  if (urls) merged.allowed_urls = urls;
  return merged;
}

const pick = (p: Limits): Limits => ({
  rate: p.rate,
  per: p.per,
  smoothing: p.smoothing,
  throttle_interval: p.throttle_interval,
  throttle_retry_limit: p.throttle_retry_limit,
  quota_max: p.quota_max,
  quota_renewal_rate: p.quota_renewal_rate,
  max_query_depth: p.max_query_depth,
});

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The effective session of `key` under `policies` (in apply_policies order; the caller has
 * checked they exist). Each part is replaced only when at least one policy sets it, so a key
 * keeps its own quota under policies that only grant rights. Several policies union the rights
 * and tags and keep the highest limits (-1 = unlimited is the highest). per_api policies grant
 * their rights with the limits inside each entry (or the policy's own when the entry has none).
 * Any inactive policy makes the key inactive.
 */
export function applyPolicies<K extends KeySession>(key: K, policies: readonly Policy[]): K {
  if (policies.length === 0) return key;
  const out: K = structuredClone(key);
  let rights: AccessRights | undefined;
  const limits: Limits = {};
  const did = { quota: false, rate: false, depth: false };

  for (const policy of policies) {
    const parts = activePartitions(policy.partitions);
    if (parts.has('acl')) {
      rights ??= {};
      for (const [apiId, entry] of Object.entries(policy.access_rights ?? {})) {
        const granted: AccessDefinition = parts.has('per_api')
          ? { ...entry, limit: { ...definedOnly(pick(policy)), ...definedOnly(entry.limit ?? {}) } as ApiLimit }
          : entry;
        const before = rights[apiId];
        const merged = mergeEntry(before, granted);
        if (parts.has('per_api') && before?.limit && granted.limit) {
          const l: Limits = { ...before.limit };
          mergeRate(l, granted.limit);
          mergeQuota(l, granted.limit);
          mergeDepth(l, granted.limit);
          merged.limit = definedOnly(l) as ApiLimit;
        }
        rights[apiId] = merged;
      }
    }
    if (parts.has('quota')) {
      did.quota = true;
      mergeQuota(limits, policy);
    }
    if (parts.has('rate_limit')) {
      did.rate = true;
      mergeRate(limits, policy);
    }
    if (parts.has('complexity')) {
      did.depth = true;
      mergeDepth(limits, policy);
    }
    const tags = union(out.tags, policy.tags);
    if (tags) out.tags = tags;
    if (policy.is_inactive === true) out.is_inactive = true;
    if (policy.hmac_enabled === true) out.hmac_enabled = true;
    if (policy.enable_http_signature_validation === true) out.enable_http_signature_validation = true;
    if (policy.meta_data) out.meta_data = { ...(out.meta_data ?? {}), ...policy.meta_data };
  }

  if (rights) out.access_rights = rights;
  const set = <F extends keyof Limits>(field: F) => {
    if (limits[field] !== undefined) (out as Limits)[field] = limits[field];
  };
  if (did.quota) (['quota_max', 'quota_renewal_rate'] as const).forEach(set);
  if (did.rate) {
    (['rate', 'per', 'smoothing', 'throttle_interval', 'throttle_retry_limit'] as const).forEach(set);
    // The gateway keeps allowance equal to rate.
    if (limits.rate !== undefined) out.allowance = limits.rate;
  }
  if (did.depth) set('max_query_depth');
  return out;
}
