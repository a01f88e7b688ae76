/**
 * The organisation-wide session (PUT /gw/org/keys/{orgID}): its quota caps the sum of all the
 * organisation's keys. Its live quota is its own item in the organisation's partition, changed
 * like a key's.
 */
import type { TallyOwner } from '../domain/billing';
import { NotFound } from '../errors';
import type { KeySession } from '../schemas/keys';
import { defineEntity } from './db/entity';
import type { StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { ensureQuotaItem, forgetCounterHintsOf, resetQuotaItem, type Spend } from './live-quota/counters';
import { spend } from './live-quota/spend';
import { orgExists, orgKeys } from './organisations';

/** Both items live in the organisation's partition. */
export const orgSessionKeys = {
  session: (orgId: string): StorageKey => ({ PK: orgKeys.partition(orgId), SK: 'ORGSESSION' }),
  quota: (orgId: string): StorageKey => ({ PK: orgKeys.partition(orgId), SK: 'ORGQUOTA' }),
};

/** The stored session: the organisation's, and when it was written. */
export interface OrgSessionItem {
  session: KeySession & { org_id: string };
  last_updated: string;
}

const sessions = defineEntity<OrgSessionItem, [orgId: string]>({
  name: 'org_session',
  key: orgSessionKeys.session,
  ids: (s) => [s.session.org_id],
  audited: true,
});
// Written by the live-quota modules (shared/store/live-quota/), keyed here.
defineEntity({ name: 'live_quota', key: orgSessionKeys.quota });

/** Writes the organisation's session (404 when the organisation does not exist); `reset` restarts its quota. */
export async function putOrgSession(item: OrgSessionItem, reset: boolean, now: number): Promise<void> {
  const orgId = item.session.org_id;
  await writeItems([
    orgExists(orgId, () => new NotFound(`organisation ${orgId} not found`)),
    sessions.put(item),
    (reset ? resetQuotaItem : ensureQuotaItem)(orgSessionKeys.quota(orgId), item.session.quota_renewal_rate, now),
  ]);
}

export async function loadOrgSession(orgId: string): Promise<KeySession | undefined> {
  return (await sessions.get(orgId))?.session;
}

/**
 * Spends one unit of the organisation's live quota. It is one item, never sharded: every check
 * of the organisation's keys shares its write ceiling (docs/reference/limits.md).
 */
export function spendOrgQuota(orgId: string, max: number, renewalRate: number, now: number, tally?: TallyOwner): Promise<Spend> {
  return spend({ head: orgSessionKeys.quota(orgId) }, { max, renewalRate, rate: null, ...(tally ? { tally } : {}) }, now);
}

/** Forgets what this process remembered of the organisation's counter (after a write of its session). */
export function forgetOrgCounterHints(orgId: string): void {
  forgetCounterHintsOf(orgKeys.partition(orgId));
}

/** The organisation's session as stored, with when it was written (an export). */
export const loadOrgSessionItem = (orgId: string): Promise<OrgSessionItem | undefined> => sessions.get(orgId);

/** The writes of a session carried by an import: the session and a fresh quota (counters restart). */
export const restoredSessionItems = (item: OrgSessionItem, now: number): TxItem[] => [
  sessions.put(item),
  resetQuotaItem(orgSessionKeys.quota(item.session.org_id), item.session.quota_renewal_rate, now),
];
