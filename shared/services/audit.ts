/**
 * The audit trail (contract §12): the change feed's audit consumer turns each change of a
 * configuration object into one entry (who, which request, what: an RFC 6902 patch, redacted),
 * and the audit-log routes read them. No route writes an entry.
 */
import { createHash } from 'node:crypto';
import { BadRequest } from '../errors';
import { config } from '../config';
import { auditPatch, withoutPersonalData } from '../domain/audit';
import { pageRequest } from '../domain/paging';
import { allows, type StoredPermissions } from '../domain/permissions';
import { errorField, logger } from '../observability/logger';
import type { AdminAuditListQuery, AuditListQuery } from '../schemas/audit';
import { loadAuditedChange, orgOfRecord, type AuditedChange } from '../store/audit-feed';
import { offboardedAmong } from '../store/offboarding';
import { loadAuditPage, putAuditEntry, type AuditEntry } from '../store/audit-log';
import type { FeedRecord } from '../store/change-feed';

export type { FeedRecord };

/** An entry's id: one per stream record, so a record handed over again finds its entry made. */
const entryIdOf = (recordId: string) => createHash('sha256').update(`audit\n${recordId}`).digest('hex').slice(0, 32);

/** The entry of a change, or undefined when nothing the trail shows changed (a write of the same values). */
export function entryOf(c: AuditedChange): AuditEntry | undefined {
  const changes = auditPatch(c.type, c.before, c.after);
  if (c.action === 'update' && changes.length === 0) return undefined;
  return {
    id: entryIdOf(c.recordId),
    at: c.at,
    org_id: c.orgId,
    actor: c.actor,
    request_id: c.requestId ?? null,
    action: c.action,
    object: { type: c.type, id: c.id },
    changes,
  };
}

/**
 * One batch of the change feed: an entry per change of a configuration object, each one
 * conditional Put. Answers the sequence numbers of the records that failed (partial batch
 * failures), so the feed hands them over again; a failed record without one fails the batch.
 */
export async function recordAuditTrail(records: readonly FeedRecord[]): Promise<string[]> {
  const failed: string[] = [];
  const retentionSeconds = config().auditRetentionDays * 86400;
  // An organisation being offboarded keeps no trail: its entries are deleted with it, and its
  // offboarding's record stands for what happened (contract §9).
  const offboarded = await offboardedAmong(records.map(orgOfRecord).filter((o): o is string => !!o));
  await Promise.all(
    records.map(async (r) => {
      const org = orgOfRecord(r);
      if (org && offboarded.has(org)) return;
      try {
        const change = await loadAuditedChange(r);
        const entry = change && entryOf(change);
        if (entry) await putAuditEntry(entry, Math.floor(Date.parse(entry.at) / 1000) + retentionSeconds);
      } catch (e) {
        const seq = r.dynamodb?.SequenceNumber;
        if (!seq) throw e;
        logger.error('audit trail: record failed; it is handed over again', { sequence: seq, error: errorField(e) });
        failed.push(seq);
      }
    }),
  );
  return failed;
}

/** The same instant in the form entries' sort keys use (UTC, ms), so ranges compare as text. */
const canonical = (iso: string | undefined) => (iso === undefined ? undefined : new Date(iso).toISOString());

function filterOf(q: AuditListQuery, orgId: string | undefined) {
  const from = canonical(q.from);
  const to = canonical(q.to);
  if (from && to && from > to) throw new BadRequest('to is before from', [{ path: 'query.to', message: 'must not be before from' }]);
  return { orgId, objectType: q.object_type, objectId: q.object_id, actor: q.actor, from, to };
}

/**
 * The caller's organisation's entries, newest first, paged (contract §5). A caller that may not
 * read the organisation's users sees user entries without their personal data.
 */
export async function listOrgAuditLog(orgId: string, q: AuditListQuery, permissions: StoredPermissions) {
  const page = await loadAuditPage(filterOf(q, orgId), pageRequest(q));
  if (allows(permissions, 'users', 'read')) return page;
  return { ...page, entries: page.entries.map((e) => (e.object.type === 'user' ? { ...e, changes: withoutPersonalData(e.changes) } : e)) };
}

/** Every organisation's entries (or one's, with org_id), newest first, paged. */
export const listAuditLog = (q: AdminAuditListQuery) => loadAuditPage(filterOf(q, q.org_id), pageRequest(q));
