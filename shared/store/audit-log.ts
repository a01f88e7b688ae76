/**
 * The audit trail's entries (contract §12): one item per change of a configuration object,
 * written only by the change feed's audit consumer with a conditional Put keyed by the stream
 * record (a record handed over twice makes one entry), expiring by TTL after AUDIT_RETENTION_DAYS.
 * Three lists, newest first, each a Query: an organisation's entries (GSI1), every organisation's
 * (GSI2, one partition), one object's (GSI3, by its id). The patch is stored gzipped: a change
 * can be large and deeply nested, and DynamoDB nests maps 32 deep at most.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AuditAction, AuditObjectType, Operation } from '../domain/audit';
import { pagesSeen, type PageRequest } from '../domain/paging';
import type { Actor } from '../request-context';
import { defineEntity } from './db/entity';
import { isConditionFailure } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { writeItems } from './db/transactions';

const auditKeys = {
  entry: (id: string): StorageKey => ({ PK: `AUDIT#${id}`, SK: 'AUDIT' }),
  /** GSI1: an organisation's entries; GSI2: every organisation's; GSI3: one object's. */
  ofOrg: (orgId: string) => `ORG#${orgId}#AUDIT`,
  all: 'AUDITLOG',
  ofObject: (objectId: string) => `AUDITOBJ#${objectId}`,
};

/** The GSI1 partition of an organisation's entries (its offboarding deletes them). */
export const auditOfOrg = auditKeys.ofOrg;

export interface AuditEntry {
  id: string;
  at: string;
  org_id: string;
  actor: Actor;
  request_id: string | null;
  action: AuditAction;
  object: { type: AuditObjectType; id: string };
  changes: Operation[];
  /** Set when the patch was too large to keep (docs/reference/limits.md): its size as JSON. */
  changes_omitted_bytes?: number;
}

/** What an entry's gzipped patch may weigh, leaving the rest of DynamoDB's 400 KB item to the entry. */
const MAX_PATCH_GZIP_BYTES = 350_000;

type Stored = Omit<AuditEntry, 'changes'> & { changes_gz: Uint8Array; [TTL_ATTRIBUTE]: number };

const entries = defineEntity<Stored, [id: string]>({
  name: 'audit_entry',
  key: auditKeys.entry,
  ids: (e) => [e.id],
  indexes: (e) => {
    const sort = timeSortKey(e.at, e.id);
    return { GSI1PK: auditKeys.ofOrg(e.org_id), GSI1SK: sort, GSI2PK: auditKeys.all, GSI2SK: sort, GSI3PK: auditKeys.ofObject(e.object.id), GSI3SK: sort };
  },
});

/** Stores an entry unless its id is taken (the same record handed over again); answers whether it was new. */
export async function putAuditEntry(entry: AuditEntry, expiresAt: number): Promise<boolean> {
  const { changes, ...rest } = entry;
  const json = JSON.stringify(changes);
  let packed = gzipSync(json);
  const omitted = packed.length > MAX_PATCH_GZIP_BYTES ? { changes_omitted_bytes: Buffer.byteLength(json) } : {};
  if (omitted.changes_omitted_bytes) packed = gzipSync('[]');
  try {
    await writeItems([entries.insert({ ...rest, ...omitted, changes_gz: packed, [TTL_ATTRIBUTE]: expiresAt })]);
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

function shownEntry(item: Record<string, unknown>): AuditEntry {
  const { changes_gz, [TTL_ATTRIBUTE]: _ttl, ...rest } = entries.fromItem(item);
  return { ...rest, changes: JSON.parse(gunzipSync(Buffer.from(changes_gz)).toString('utf8')) as Operation[] };
}

export interface AuditFilter {
  /** The organisation (always set for dashboard callers). */
  orgId?: string;
  objectType?: AuditObjectType;
  objectId?: string;
  /** A user id or e-mail, or `gateway`, `admin`, `system`. */
  actor?: string;
  /** ISO 8601 instants, inclusive. */
  from?: string;
  to?: string;
}

/** The Query of a filtered list: the narrowest index for it, the rest as a filter. */
function auditQuery(f: AuditFilter): ListQuery {
  const [index, partition] = f.objectId
    ? (['GSI3', auditKeys.ofObject(f.objectId)] as const)
    : f.orgId !== undefined
      ? (['GSI1', auditKeys.ofOrg(f.orgId)] as const)
      : (['GSI2', auditKeys.all] as const);
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (f.objectId && f.orgId !== undefined) {
    conditions.push('#org = :org');
    Object.assign(names, { '#org': 'org_id' });
    values[':org'] = f.orgId;
  }
  if (f.objectType) {
    conditions.push('#obj.#type = :type');
    Object.assign(names, { '#obj': 'object', '#type': 'type' });
    values[':type'] = f.objectType;
  }
  if (f.actor) {
    conditions.push('(#actor.#aid = :actor OR #actor.#email = :actor OR #actor.#atype = :actor)');
    Object.assign(names, { '#actor': 'actor', '#aid': 'id', '#email': 'email', '#atype': 'type' });
    values[':actor'] = f.actor;
  }
  return {
    index,
    partition,
    forward: false,
    ...(f.from || f.to ? { sortRange: { ...(f.from ? { from: f.from } : {}), ...(f.to ? { to: `${f.to}~` } : {}) } } : {}),
    ...(conditions.length ? { filter: { expression: conditions.join(' AND '), names, values } } : {}),
  };
}

/**
 * A page of entries, newest first. Entries expire by TTL and lists filter them, neither of which a
 * counter can follow, so `pages` is the pages the read has seen (contract §5).
 */
export async function loadAuditPage(f: AuditFilter, req: PageRequest) {
  const page = await listPage(auditQuery(f), req);
  return { entries: page.items.map(shownEntry), pages: pagesSeen(page.extent, req), next_cursor: page.nextCursor };
}
