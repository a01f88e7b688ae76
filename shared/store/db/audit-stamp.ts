/**
 * Who made each change, carried by the change itself (contract §12): every item written through
 * an entity (shared/store/db/entity.ts) during a request carries the request's actor, request id
 * and time in the attributes below, so the change feed's new image names its author without a
 * write of its own. A delete leaves no new image, so the delete of an audited entity writes a
 * deletion record in the same transaction (docs/using/audit-trail.md); the audit consumer finds it by
 * the deleted item's key. Reads never show these attributes (shared/store/db/items.ts).
 */
import { currentRequest } from '../../request-context';
import type { StorageKey } from './storage-key';

export const STAMP = { actor: 'audit_actor', requestId: 'audit_request_id', at: 'audit_at' } as const;

/** The stamp attributes themselves: never part of a value. */
export const STAMP_ATTRS: readonly string[] = Object.values(STAMP);

/** How long a deletion record is kept: longer than the change feed keeps a record (24 h) with room for a stopped stage. */
export const DELETION_RECORD_SECONDS = 7 * 24 * 3600;

/** The stamp of a write made now, or nothing outside a request with an actor (the change feed's own writes). */
export function auditStamp(now = Date.now()): Record<string, unknown> {
  const r = currentRequest();
  return r?.actor ? { [STAMP.actor]: r.actor, [STAMP.requestId]: r.requestId, [STAMP.at]: new Date(now).toISOString() } : {};
}

/** Deletion records: one partition per deleted item, one record per delete (its time, then its request). */
export const deletionKeys = {
  partition: (deleted: StorageKey) => `DELETED#${deleted.PK}|${deleted.SK}`,
  record: (deletedPk: string, deletedSk: string, at: string, requestId: string): StorageKey => ({
    PK: deletionKeys.partition({ PK: deletedPk, SK: deletedSk }),
    SK: `${at}#${requestId}`,
  }),
};

/** The stamp as SET clauses (`, #audit0 = :audit0, ...`) of a hand-written UpdateExpression, with its names and values. */
export function stampUpdate(now = Date.now()): { set: string; names: Record<string, string>; values: Record<string, unknown> } {
  const entries = Object.entries(auditStamp(now));
  return {
    set: entries.map((_, i) => `, #audit${i} = :audit${i}`).join(''),
    names: Object.fromEntries(entries.map(([name], i) => [`#audit${i}`, name])),
    values: Object.fromEntries(entries.map(([, value], i) => [`:audit${i}`, value])),
  };
}
