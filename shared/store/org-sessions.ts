/**
 * The organisation-wide session (PUT /gw/org/keys/{orgID}): its quota caps the sum of all the
 * organisation's keys. Its live quota is its own item in the organisation's partition, changed
 * like a key's.
 */
import { NotFound } from '../errors';
import type { KeySession } from '../schemas/keys';
import { getItem } from './db/items';
import type { StorageKey } from './db/storage-key';
import { putOp, transactWrite } from './db/transactions';
import { ensureQuotaItem, resetQuotaItem, spend, type Spend } from './live-quota';
import { orgExistsCheck, orgKeys } from './organisations';

/** Both items live in the organisation's partition. */
export const orgSessionKeys = {
  session: (orgId: string): StorageKey => ({ PK: orgKeys.partition(orgId), SK: 'ORGSESSION' }),
  quota: (orgId: string): StorageKey => ({ PK: orgKeys.partition(orgId), SK: 'ORGQUOTA' }),
};

/** Writes the organisation's session (404 when the organisation does not exist); `reset` restarts its quota. */
export async function putOrgSession(orgId: string, session: KeySession, reset: boolean, now: number): Promise<void> {
  await transactWrite([
    { op: orgExistsCheck(orgId), onConditionFail: () => new NotFound(`organisation ${orgId} not found`) },
    {
      op: putOp({
        ...orgSessionKeys.session(orgId),
        entity: 'org_session',
        session: { ...session, org_id: orgId },
        last_updated: new Date(now * 1000).toISOString(),
      }),
    },
    (reset ? resetQuotaItem : ensureQuotaItem)(orgSessionKeys.quota(orgId), session.quota_renewal_rate, now),
  ]);
}

export async function getOrgSession(orgId: string): Promise<KeySession | undefined> {
  const item = await getItem(orgSessionKeys.session(orgId), true);
  return item ? (item.session as KeySession) : undefined;
}

/**
 * Spends one unit of the organisation's live quota. It is one item, never sharded: every check
 * of the organisation's keys shares its write ceiling (README "Limits").
 */
export function spendOrgQuota(orgId: string, max: number, renewalRate: number, now: number): Promise<Spend> {
  return spend({ head: orgSessionKeys.quota(orgId) }, { max, renewalRate, rate: null }, now);
}
