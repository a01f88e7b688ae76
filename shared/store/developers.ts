/**
 * Developers of an organisation's portal, the uniqueness of their e-mail in it, their sessions,
 * invitations and the sign-in attempt windows. The rules (hashing, states, limits) are the
 * service's (shared/services/developers.ts); this module knows only the items.
 */
import { pagesSeen, type PageRequest } from '../domain/paging';
import type { Developer } from '../schemas/portal';
import { tableName } from './db/client';
import { defineEntity, defineMarker } from './db/entity';
import { conditionalUpdate, loadListed, stripItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { writeItems, type TxItem } from './db/transactions';
import { windowUnitUpdate } from './db/window-unit';
import { Conflict } from '../errors';
import { sha256Hex } from '../lib/hashing';
import { ddb } from './db/client';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

export const developerKeys = {
  developer: (id: string): StorageKey => ({ PK: `DEV#${id}`, SK: 'DEV' }),
  /** GSI1: an organisation's developers in sign-up order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#DEVS`,
  /** Makes an e-mail unique among an organisation's developers (lower case) and finds its developer at sign-in. */
  email: (orgId: string, emailLower: string): StorageKey => ({ PK: `ORG#${orgId}#DEVEMAIL#${emailLower}`, SK: 'UNIQUE' }),
  /** A developer session, by SHA-256 of its token. */
  session: (hash: string): StorageKey => ({ PK: `DEVSESSION#${hash}`, SK: 'SESSION' }),
  /** GSI1: an organisation's sessions and invitations (what its offboarding finds; they also expire by TTL). */
  tokensOfOrg: (orgId: string) => `ORG#${orgId}#DEVTOKENS`,
  /** An invitation, by SHA-256 of its token. */
  invitation: (hash: string): StorageKey => ({ PK: `INVITE#${hash}`, SK: 'INVITE' }),
  /** Sign-in attempts of one scope (an account or a source address) in one fixed window. */
  attempts: (scope: string, start: number): StorageKey => ({ PK: `SIGNIN#${scope}`, SK: `AT#${start}` }),
};

/** The attempt scopes of a sign-in: its account (organisation and e-mail, hashed: no e-mail in a key) and its source. */
export function signInScopes(orgId: string, emailLower: string, source: string) {
  // Hashed with the organisation: the window names neither (it outlives an offboarding by at most its window).
  const account = sha256Hex(`${orgId}\n${emailLower}`);
  return { account: `ACCT#${account}`, source: `SRC#${source}` };
}

/** A developer as stored: reads never show the password's hash or the lookup copy of the e-mail. */
export type DeveloperRecord = Developer & { email_lower: string; password_hash: string; open_requests?: number };

const PRIVATE = ['password_hash', 'email_lower', 'open_requests'] as const;

const developers = defineEntity<DeveloperRecord, [id: string]>({
  name: 'developer',
  key: developerKeys.developer,
  ids: (d) => [d.id],
  indexes: (d) => ({ GSI1PK: developerKeys.ofOrg(d.org_id), GSI1SK: timeSortKey(d.created_at, d.id) }),
  privateAttrs: PRIVATE,
  audited: true,
});
const emails = defineMarker({ name: 'developer_email', key: developerKeys.email });

export interface DeveloperSession {
  developer_id: string;
  org_id: string;
  /** Epoch seconds; DynamoDB's TTL removes the item some time after, so reads check it too. */
  expires_at: number;
}
const sessions = defineEntity<DeveloperSession, [hash: string]>({
  name: 'developer_session',
  key: developerKeys.session,
  indexes: (s) => ({ GSI1PK: developerKeys.tokensOfOrg(s.org_id), GSI1SK: String(s.expires_at) }),
});

export interface Invitation {
  org_id: string;
  email_lower: string;
  expires_at: number;
}
const invitations = defineEntity<Invitation, [hash: string]>({
  name: 'developer_invitation',
  key: developerKeys.invitation,
  indexes: (i) => ({ GSI1PK: developerKeys.tokensOfOrg(i.org_id), GSI1SK: String(i.expires_at) }),
});
const attempts = defineEntity({ name: 'sign_in_window', key: developerKeys.attempts });

/** What a developer item shows. */
export const shownDeveloper = (d: DeveloperRecord): Developer => developers.fromItem(d as unknown as Record<string, unknown>);

const taken = () => new Conflict('e-mail taken');

/**
 * A new developer and its e-mail's claim in one transaction; false when the e-mail is taken in the
 * organisation (the caller answers as if it were not). An invitation, when given, is spent in
 * the same transaction, so it makes exactly one developer.
 */
export async function insertDeveloper(d: DeveloperRecord, invitationHash?: string): Promise<boolean> {
  const tx: TxItem[] = [emails.claim([d.org_id, d.email_lower], { developer_id: d.id }, taken), developers.insert(d)];
  if (invitationHash) tx.push(invitations.remove(invitationHash));
  try {
    await writeItems(tx);
    return true;
  } catch (e) {
    if (e instanceof Conflict) return false;
    throw e;
  }
}

/** Every developer of the organisation as stored, hashes included (an export; a Query of its index). */
export async function loadOrgDevelopers(orgId: string): Promise<DeveloperRecord[]> {
  return (await loadListed(developerKeys.ofOrg(orgId))).map((i) => stripItem<DeveloperRecord>(i));
}

/**
 * An imported developer's items: the developer first (create-only: an import writes an object's
 * items one by one, and an offboarding finds the e-mail's claim through its developer), then its e-mail's claim.
 */
export const restoredDeveloperItems = (d: DeveloperRecord): TxItem[] => [
  developers.insert(d),
  emails.claim([d.org_id, d.email_lower], { developer_id: d.id }, taken),
];

/** The developer as stored, its password's hash included, or undefined. */
export const loadDeveloper = async (id: string): Promise<DeveloperRecord | undefined> => {
  const item = await developers.getItem(id);
  return item ? stripItem<DeveloperRecord>(item) : undefined;
};

/** The developer an e-mail names in the organisation (the whole item, its hash included), or undefined. */
export async function loadDeveloperByEmail(orgId: string, emailLower: string): Promise<DeveloperRecord | undefined> {
  const marker = await emails.holder(orgId, emailLower);
  return marker ? loadDeveloper(String(marker.developer_id)) : undefined;
}

/** Sets a developer's state (and its stamp); `missing` when there is no such developer. */
export async function setDeveloperState(id: string, state: Developer['state'], at: string, missing: () => Error): Promise<void> {
  await writeItems([{ ...developers.set([id], { state, updated_at: at }), onConditionFail: missing }]);
}

/** A page of the organisation's developers in sign-up order, of one state when asked. */
export async function loadDeveloperPage(orgId: string, req: PageRequest, state?: Developer['state']) {
  const q: ListQuery = {
    index: 'GSI1',
    partition: developerKeys.ofOrg(orgId),
    forward: true,
    ...(state ? { filter: { expression: '#s = :s', names: { '#s': 'state' }, values: { ':s': state } } } : {}),
  };
  const page = await listPage(q, req);
  return { developers: page.items.map((i) => shownDeveloper(i as DeveloperRecord)), pages: pagesSeen(page.extent, req), next_cursor: page.nextCursor };
}

/** The conditional ADD that holds a developer's open requests under `max`, for a transaction. */
export function openRequestChange(developerId: string, delta: 1 | -1, max: number, refused: () => Error): TxItem {
  const update = {
    TableName: tableName(),
    Key: developerKeys.developer(developerId),
    UpdateExpression: 'ADD #open :d',
    ConditionExpression: delta > 0 ? 'attribute_exists(PK) AND (attribute_not_exists(#open) OR #open < :max)' : 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#open': 'open_requests' },
    ExpressionAttributeValues: { ':d': delta, ...(delta > 0 ? { ':max': max } : {}) },
  };
  return { op: { Update: update }, onConditionFail: refused };
}

// --- sessions and invitations ----------------------------------------------------------------

export async function putDeveloperSession(hash: string, s: DeveloperSession): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: sessions.toItem(s, { at: [hash], extra: { [TTL_ATTRIBUTE]: s.expires_at } }) }));
}

export const loadDeveloperSession = (hash: string): Promise<DeveloperSession | undefined> => sessions.get(hash);

export async function removeDeveloperSession(hash: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: sessions.key(hash) }));
}

export async function putInvitation(hash: string, inv: Invitation): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: invitations.toItem(inv, { at: [hash], extra: { [TTL_ATTRIBUTE]: inv.expires_at } }) }));
}

export const loadInvitation = (hash: string): Promise<Invitation | undefined> => invitations.get(hash);

// --- sign-in attempts ------------------------------------------------------------------------------

/**
 * Spends one attempt of the scope's window when fewer than `max` were made in it (one conditional
 * ADD; the item expires with its window). False when none is left.
 */
export async function spendSignInAttempt(scope: string, window: { start: number; end: number }, max: number): Promise<boolean> {
  return (await conditionalUpdate({ ...windowUnitUpdate(attempts.key(scope, window.start), attempts.name, window.end, max), ReturnValues: 'NONE' })).ok;
}
