/**
 * Reads the change feed (contract §12) into the changes of configuration objects: which object
 * (type, id, organisation), its value before and after (as stored, without storage attributes;
 * compressed definitions and templates opened), and who made the change, from the stamp its
 * write carried (db/audit-stamp.ts) or, for a delete, from the deletion record its transaction
 * wrote. Counters, quotas, deliveries, markers and every other item are not configuration and are
 * skipped. Items are recognised by their `entity`, so this module builds no storage key of another.
 */
import { decodeParts } from './db/stored-parts';
import type { AuditAction, AuditObjectType } from '../domain/audit';
import type { Actor } from '../request-context';
import { deletionKeys, STAMP, STAMP_ATTRS } from './db/audit-stamp';
import { queryAll, stripItem } from './db/items';
import type { StorageKey } from './db/storage-key';
import { image, type FeedRecord } from './change-feed';
import { ORG_SEARCH_ATTR } from './organisations';
import { COUNTED_IN } from './policies';

type Item = Record<string, unknown>;

export interface AuditedChange {
  /** The stream record's own id: one entry per record, however often it is handed over. */
  recordId: string;
  action: AuditAction;
  type: AuditObjectType;
  id: string;
  orgId: string;
  before?: Item;
  after?: Item;
  actor: Actor;
  requestId?: string;
  /** When the change was made (ISO 8601, ms). */
  at: string;
}

interface Follows {
  type: AuditObjectType;
  id: (i: Item) => unknown;
  org: (i: Item) => unknown;
  /** The object as the trail shows it, from the stored item (storage attributes already removed). */
  value?: (i: Item) => Item;
}

const session = (i: Item) => (i.session ?? {}) as Item;

/** The gzip body of an item (Uint8Array from the SDK, base64 text in Lambda's JSON event). */
const bytesOf = (b: unknown): Buffer => (typeof b === 'string' ? Buffer.from(b, 'base64') : Buffer.from(b as Uint8Array));

/** A definition of one part rides whole in the main item; one stored in several parts is too large to compare here (docs/reference/limits.md). */
function apiValue({ body, ...meta }: Item): Item {
  const parts = Number(meta.parts ?? 1);
  if (parts > 1) return { ...meta, definition: { stored_in_parts: parts } };
  return { ...meta, definition: body === undefined ? null : decodeParts([bytesOf(body)], `API ${String(meta.api_id)}`).value };
}

function templateValue({ body, ...meta }: Item): Item {
  return { ...meta, data: body === undefined ? null : decodeParts([bytesOf(body)], `Template ${String(meta._id)}`).value };
}

/** The audited entities (shared/store/*.ts, `audited: true`) and how the trail names them. */
const FOLLOWED: Record<string, Follows> = {
  // The search copy of the id and name is the list's bookkeeping, not the organisation.
  org: { type: 'organisation', id: (i) => i.id, org: (i) => i.id, value: ({ [ORG_SEARCH_ATTR]: _search, ...org }) => org },
  user: { type: 'user', id: (i) => i.id, org: (i) => i.org_id },
  api: { type: 'api', id: (i) => i.api_id, org: (i) => i.org_id, value: apiValue },
  key: { type: 'key', id: (i) => session(i).key_hash, org: (i) => session(i).org_id },
  // The count a policy is held in is the store's bookkeeping, not the policy.
  policy: { type: 'policy', id: (i) => i.id, org: (i) => i.org_id, value: ({ [COUNTED_IN]: _counted, ...policy }) => policy },
  org_session: { type: 'org_key', id: (i) => session(i).org_id, org: (i) => session(i).org_id },
  hook: { type: 'webhook', id: (i) => i.id, org: (i) => i.org_id },
  asset: { type: 'template', id: (i) => i._id, org: (i) => i.org_id, value: templateValue },
  oauth_client: { type: 'oauth_client', id: (i) => i.client_id, org: (i) => i.org_id },
  domain_grant: { type: 'domain', id: (i) => i.domain, org: (i) => i.org_id },
  portal_settings: { type: 'portal', id: (i) => i.org_id, org: (i) => i.org_id },
  catalogue_entry: { type: 'catalogue_entry', id: (i) => i.api_id, org: (i) => i.org_id },
  // The lookup copy of the e-mail and the open-request count are the store's bookkeeping, not the developer.
  developer: { type: 'developer', id: (i) => i.id, org: (i) => i.org_id, value: ({ email_lower: _e, open_requests: _o, ...d }) => d },
  key_request: { type: 'key_request', id: (i) => i.id, org: (i) => i.org_id },
};

/** The entity names the trail follows (the cloud's event filter names them too). */
export const AUDITED_ENTITIES: readonly string[] = Object.keys(FOLLOWED);

const entityOf = (i: Record<string, unknown> | undefined): string | undefined => (i?.entity as { S?: string } | undefined)?.S;

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

function isActor(v: unknown): v is Actor {
  const t = (v as { type?: unknown } | null)?.type;
  return t === 'user' || t === 'gateway' || t === 'admin' || t === 'developer' || t === 'system';
}

/** What a stamp (or a deletion record) says: who, which request, when. */
function stampOf(i: Item | undefined): { actor: Actor; requestId?: string; at?: string } {
  const actor = isActor(i?.[STAMP.actor]) ? (i![STAMP.actor] as Actor) : ({ type: 'system' } as const);
  const requestId = typeof i?.[STAMP.requestId] === 'string' ? (i[STAMP.requestId] as string) : undefined;
  const at = typeof i?.[STAMP.at] === 'string' ? (i[STAMP.at] as string) : undefined;
  return { actor, ...(requestId ? { requestId } : {}), ...(at ? { at } : {}) };
}

/**
 * The deletion record of a deleted item: the one written nearest the record's time (a key deleted
 * again after being made anew has one per delete, each for a week).
 */
async function deletionOf(key: StorageKey, approxMs: number | undefined): Promise<Item | undefined> {
  const records = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': deletionKeys.partition(key) },
    ConsistentRead: true,
  });
  if (records.length <= 1 || approxMs === undefined) return records[0];
  const distance = (r: Item) => Math.abs(Date.parse(text(r[STAMP.at])) - approxMs);
  return records.reduce((best, r) => (distance(r) < distance(best) ? r : best));
}

/** The organisation a record's configuration object belongs to (read from its images, no I/O), or undefined for every other record. */
export function orgOfRecord(r: FeedRecord): string | undefined {
  const entity = entityOf(r.dynamodb?.NewImage) ?? entityOf(r.dynamodb?.OldImage);
  const follows = entity ? FOLLOWED[entity] : undefined;
  const subject = image(r.dynamodb?.NewImage) ?? image(r.dynamodb?.OldImage);
  return follows && subject ? text(follows.org(subject)) : undefined;
}

/** The change of a configuration object a record carries, or undefined for every other record. */
export async function loadAuditedChange(r: FeedRecord): Promise<AuditedChange | undefined> {
  const entity = entityOf(r.dynamodb?.NewImage) ?? entityOf(r.dynamodb?.OldImage);
  const follows = entity ? FOLLOWED[entity] : undefined;
  if (!follows || !r.eventName) return undefined;
  const newItem = r.eventName === 'REMOVE' ? undefined : image(r.dynamodb?.NewImage);
  const oldItem = r.eventName === 'INSERT' ? undefined : image(r.dynamodb?.OldImage);
  const shown = (i: Item | undefined) => {
    if (!i) return undefined;
    const plain = stripItem<Item>(i, STAMP_ATTRS);
    return follows.value ? follows.value(plain) : plain;
  };
  const subject = (newItem ?? oldItem)!;
  const approx = r.dynamodb?.ApproximateCreationDateTime;
  const approxMs = typeof approx === 'number' && approx > 0 ? approx * 1000 : undefined;
  const stamp = r.eventName === 'REMOVE' ? stampOf(await deletionOf({ PK: text(subject.PK), SK: text(subject.SK) }, approxMs)) : stampOf(newItem);
  const action: AuditAction = r.eventName === 'INSERT' ? 'create' : r.eventName === 'MODIFY' ? 'update' : 'delete';
  return {
    recordId: r.eventID ?? text(r.dynamodb?.SequenceNumber),
    action,
    type: follows.type,
    id: text(follows.id(subject)),
    orgId: text(follows.org(subject)),
    ...(oldItem ? { before: shown(oldItem) } : {}),
    ...(newItem ? { after: shown(newItem) } : {}),
    actor: stamp.actor,
    ...(stamp.requestId ? { requestId: stamp.requestId } : {}),
    at: stamp.at ?? new Date(approxMs ?? Date.now()).toISOString(),
  };
}
