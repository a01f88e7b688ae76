/**
 * The organisation-wide session (PUT /gw/org/keys/{orgID}): its quota caps the sum of all the
 * organisation's keys. Its live quota is its own item, changed like a key's.
 */
import { NotFound } from '../errors';
import type { KeySession } from '../schemas/keys';
import { tableName } from './client';
import { getItem } from './items';
import { sessionKeys } from './keys';
import { ensureQuotaItem, resetQuotaItem } from './live-quota';
import { orgExistsCheck } from './organisations';
import { forgetSessions } from './session-cache';
import { transactWrite } from './transact';

/** Writes the organisation's session (404 when the organisation does not exist); `reset` restarts its quota. */
export async function putOrgSession(orgId: string, session: KeySession, reset: boolean, now: number): Promise<void> {
  await transactWrite([
    { op: orgExistsCheck(orgId), onConditionFail: () => new NotFound(`organisation ${orgId} not found`) },
    {
      op: {
        Put: {
          TableName: tableName(),
          Item: { ...sessionKeys.orgSession(orgId), entity: 'org_session', session: { ...session, org_id: orgId }, last_updated: new Date(now * 1000).toISOString() },
        },
      },
    },
    (reset ? resetQuotaItem : ensureQuotaItem)(sessionKeys.orgQuota(orgId), session.quota_renewal_rate, now),
  ]);
  forgetSessions();
}

export async function getOrgSession(orgId: string): Promise<KeySession | undefined> {
  const item = await getItem(sessionKeys.orgSession(orgId), true);
  return item ? (item.session as KeySession) : undefined;
}
