/**
 * An organisation's standing (contract §9): whether it is active, and its own limits. Every
 * dashboard request, every check of its keys, every gateway write and every webhook routed for it
 * depends on it, so a process keeps what it read for CACHE_SECONDS: a suspension, a restoration or
 * a change of limits takes effect within that bound (at once in the process that made it).
 */
import { config } from '../config';
import { Forbidden } from '../errors';
import { TtlCache } from '../lib/ttl-cache';
import { WEBHOOK_LIMITS, type OrgLimitClass } from '../limits';
import type { OrgLimitOverrides } from '../schemas/organisations';
import { loadOrgStanding, type OrgStanding } from '../store/organisations';

const standings = new TtlCache<OrgStanding>(() => config().cacheMs);

export async function orgStandingOf(orgId: string): Promise<OrgStanding> {
  const cached = standings.get(orgId);
  if (cached) return cached;
  const standing = await loadOrgStanding(orgId);
  standings.set(orgId, standing);
  return standing;
}

/** This process reads the organisation's standing again on its next request. */
export function forgetOrgStanding(orgId: string): void {
  standings.delete(orgId);
}

/** A dashboard user of a suspended organisation is refused, with what to do about it. */
export async function assertOrgActive(orgId: string): Promise<void> {
  if (!(await orgStandingOf(orgId)).active) {
    throw new Forbidden('This organisation is suspended: its dashboard, keys and webhooks are off until the installation admin restores it');
  }
}

/** The member of `limits` that overrides each class of ORG_LIMITS. */
const OVERRIDE: Record<OrgLimitClass, keyof OrgLimitOverrides> = { reads: 'reads', writes: 'writes', hookTest: 'hook_tests' };

/** The organisation's units per window of `cls`: its own figure, else the installation's. */
export async function orgLimitMax(orgId: string, cls: OrgLimitClass): Promise<number> {
  return (await orgStandingOf(orgId)).limits[OVERRIDE[cls]] ?? config().orgLimits[cls];
}

/** How many webhooks the organisation may hold: its own figure, else the installation's. */
export async function orgHooksMax(orgId: string): Promise<number> {
  return (await orgStandingOf(orgId)).limits.hooks ?? WEBHOOK_LIMITS.hooksPerOrg;
}
