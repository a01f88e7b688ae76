/**
 * Gateway keys (session objects), stored only under the SHA-256 of the clear key. The key item
 * holds the session as sent (minus the basic-auth password, kept as a scrypt hash in a private
 * attribute); its live quota counters (each holding a quota window and a rate window, and, for
 * a hot key, their shards: shared/store/live-quota/) share its partition, so the data-plane
 * check touches one partition key per key. The clear key is never a storage key.
 */
import { Conflict } from '../errors';
import { nowSeconds } from '../domain/quota';
import type { QuotaScope } from '../domain/key-rules';
import type { KeySession } from '../schemas/keys';
import { defineEntity, defineMarker } from './db/entity';
import { pageCount, type PageRequest } from '../domain/paging';
import { batchGet, loadListed, queryAll } from './db/items';
import { listPage } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { deleteOp, writeItems, type TxItem } from './db/transactions';
import { guardVersion } from './db/versioned-write';
import {
  CounterSharded,
  ensureQuotaItem,
  resetQuotaItem,
  type CounterLimits,
  type CounterRef,
  type LiveQuota,
  type Receipt,
  type Spend,
} from './live-quota/counters';
import { refund } from './live-quota/refund';
import { forgetCounterHintsOf } from './live-quota/counters';
import { demoteCounter, liveOf } from './live-quota/shards';
import { spend } from './live-quota/spend';
import { countChange, orgMustBeActive, loadCount } from './organisations';

export const keyKeys = {
  key: (hash: string): StorageKey => ({ PK: `KEY#${hash}`, SK: 'KEY' }),
  partition: (hash: string) => `KEY#${hash}`,
  /** Live quota of the key (scope '') or of one API under per-API limits (scope = api_id). */
  quota: (hash: string, scope = ''): StorageKey => ({ PK: `KEY#${hash}`, SK: scope ? `QUOTA#${scope}` : 'QUOTA' }),
  /** Shard `i` of a hot key's counter of `scope` (shared/store/live-quota/shards.ts). */
  shard: (hash: string, scope: string, i: number): StorageKey => ({ PK: `KEY#${hash}`, SK: `SHARD#${scope}#${i}` }),
  shardPrefix: (scope: string) => `SHARD#${scope}#`,
  /** Basic-auth user name -> key hash, unique within the key's organisation ('' for org-less keys). */
  username: (orgId: string, user: string): StorageKey => ({ PK: `ORG#${orgId}#KEYUSER#${user}`, SK: 'KEYUSER' }),
  /** GSI1: an organisation's keys by creation time (keys without an organisation are in no list). */
  ofOrg: (orgId: string) => `ORG#${orgId}#KEYS`,
};

/** The key's live quota counter of `scope` ('' = key-wide, else the API id under per-API limits). */
export function counterOf(hash: string, scope: string): CounterRef {
  return { head: keyKeys.quota(hash, scope), shard: (i) => keyKeys.shard(hash, scope, i), shardPrefix: keyKeys.shardPrefix(scope) };
}

export type StoredKey = KeySession & { key_hash: string; org_id: string; date_created: string; last_updated: string };

export interface KeyItem {
  session: StoredKey;
  version: number;
  basic_auth_hash?: string;
  username?: string;
  /** The key-wide live quota as read with the key (reads only; writes never take it from here). */
  live?: LiveQuota;
}

const keys = defineEntity<Omit<KeyItem, 'live'>, [hash: string]>({
  name: 'key',
  key: keyKeys.key,
  ids: (k) => [k.session.key_hash],
  indexes: (k) => (k.session.org_id ? { GSI1PK: keyKeys.ofOrg(k.session.org_id), GSI1SK: timeSortKey(k.session.date_created, k.session.key_hash) } : {}),
  versioned: true,
  audited: true,
});
const usernames = defineMarker({ name: 'key_username', key: keyKeys.username });
// Written by the live-quota modules (shared/store/live-quota/), keyed here.
defineEntity({ name: 'live_quota', key: keyKeys.quota });
defineEntity({ name: 'live_quota_shard', key: keyKeys.shard });

/**
 * The user-name marker moves with the name. Names are unique within the key's organisation only
 * (as the reference gateway scopes them), so one organisation neither learns nor blocks another's.
 */
function usernameItems(hash: string, orgId: string, next: string | undefined, previous: string | undefined): TxItem[] {
  if (next === previous) return [];
  const items: TxItem[] = [];
  if (previous) items.push(usernames.release(orgId, previous));
  if (next)
    items.push(usernames.claim([orgId, next], { key_hash: hash }, () => new Conflict(`basic-auth user ${next} already has a key in this organisation`)));
  return items;
}

/**
 * Stores a new key, its user-name marker (409 when taken) and a fresh live quota, in one
 * transaction; the key's organisation must exist (422), unless it is blank (a key the gateway
 * manages itself), and its count of keys (the list's `pages`) moves with it.
 */
export async function insertKey(k: Omit<KeyItem, 'version' | 'live'>, scopes: QuotaScope[], now: number, extra: TxItem[] = []): Promise<void> {
  const org = k.session.org_id;
  await writeItems([...(org ? [orgMustBeActive(org), countChange(org, 'KEY', 1)] : []), ...restoredKeyItems(k, scopes, now), ...extra]);
}

/**
 * The key and its key-wide live quota in one consistent Query (SK between `KEY` and `QUOTA`
 * holds exactly those two), so a read costs one round trip (two for a hot key, whose shards
 * are summed).
 */
export async function loadKey(hash: string): Promise<KeyItem | undefined> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :key AND :quota',
    ExpressionAttributeValues: { ':pk': keyKeys.partition(hash), ':key': keyKeys.key(hash).SK, ':quota': keyKeys.quota(hash).SK },
    ConsistentRead: true,
  });
  const item = items.find((i) => i.SK === 'KEY');
  if (!item) return undefined;
  const quota = items.find((i) => i.SK === 'QUOTA');
  const live = quota ? await liveOf(counterOf(hash, ''), quota, nowSeconds()) : undefined;
  return { ...keys.fromItem(item), ...(live ? { live } : {}) };
}

/** Forgets what this process remembered of one key's counters (after a write to that key). */
export function forgetKeyCounterHints(hash: string): void {
  forgetCounterHintsOf(keyKeys.partition(hash));
}

/** The stored session alone, with one GetItem: what the check and ownership checks read. */
export async function loadKeySession(hash: string): Promise<StoredKey | undefined> {
  return (await keys.get(hash))?.session;
}

/** The stored sessions of many key hashes, by hash (BatchGetItem, 100 keys a call). */
export async function loadKeySessions(hashes: readonly string[]): Promise<Map<string, StoredKey>> {
  const items = await batchGet(
    hashes.map((h) => keyKeys.key(h)),
    true,
  );
  return new Map(items.map((i) => keys.fromItem(i).session).map((k) => [k.key_hash, k]));
}

/** Key hash of a basic-auth user name of the organisation, when one of its keys has it. */
export async function hashOfUsername(orgId: string, user: string): Promise<string | undefined> {
  const item = await usernames.holder(orgId, user);
  return typeof item?.key_hash === 'string' ? item.key_hash : undefined;
}

/**
 * A page of an organisation's keys, newest first (one Query on GSI1; the total from the
 * maintained count), each with its key-wide live quota (one BatchGetItem for the page; a hot
 * key's shards one Query more).
 */
export async function loadOrgKeyPage(orgId: string, req: PageRequest): Promise<{ keys: KeyItem[]; pages: number; next_cursor?: string }> {
  const [page, total] = await Promise.all([listPage({ index: 'GSI1', partition: keyKeys.ofOrg(orgId), forward: false }, req), loadCount(orgId, 'KEY')]);
  const items = page.items.map((i) => keys.fromItem(i));
  const heads = await batchGet(
    items.map((k) => keyKeys.quota(k.session.key_hash)),
    true,
  );
  const headOf = new Map(heads.map((h) => [String(h.PK), h]));
  const now = nowSeconds();
  const withLive = await Promise.all(
    items.map(async (k) => {
      const hash = k.session.key_hash;
      const head = headOf.get(keyKeys.partition(hash));
      return head ? { ...k, live: await liveOf(counterOf(hash, ''), head, now) } : k;
    }),
  );
  return { keys: withLive, pages: pageCount(total, req), ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}) };
}

/** Resets (or demotes) that meet a hot key's shards before the write gives up (409). */
const MAX_SHARDED_RESETS = 3;

/**
 * Writes `next` over the key read as `previous` (guarded by its version). The live quota is reset
 * in the same transaction unless `reset` is false (suppress_reset); then only missing ones are
 * made. A reset that meets a hot key's shards folds them back into the counter (exactly) first.
 */
export async function saveKey(next: Omit<KeyItem, 'live'>, previous: KeyItem, scopes: QuotaScope[], reset: boolean, now: number): Promise<void> {
  const hash = next.session.key_hash;
  for (let attempt = 1; ; attempt++) {
    try {
      await writeItems([
        guardVersion(keys.put(next), previous.version),
        ...scopes.map((q) => (reset ? resetQuotaItem : ensureQuotaItem)(keyKeys.quota(hash, q.scope), q.renewalRate, now)),
        ...usernameItems(hash, previous.session.org_id, next.username, previous.username),
      ]);
      return;
    } catch (e) {
      if (!(e instanceof CounterSharded)) throw e;
      if (attempt >= MAX_SHARDED_RESETS) throw new Conflict('the live quota changed while it was being reset; try again');
      const scope = scopes.find((q) => keyKeys.quota(hash, q.scope).SK === e.head.SK)?.scope ?? '';
      await demoteCounter(counterOf(hash, scope), now);
    }
  }
}

/** Deletes a key read as `current` (guarded by its version) with its live quotas, rate windows and user-name marker; its organisation's count moves. */
export async function removeKey(current: KeyItem, extra: TxItem[] = []): Promise<void> {
  await writeItems([...(await removedKeyItems(current, 89)), ...extra]);
}

/**
 * The writes that delete a key with its user-name marker and live quotas (at most `room` of its
 * rate windows: those beyond a transaction's size expire by TTL on their own), for a transaction
 * that also does something else (a developer's roll makes the new key in the same one).
 */
async function removedKeyItems(current: KeyItem, room: number, counted = true): Promise<TxItem[]> {
  const hash = current.session.key_hash;
  const partition = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keyKeys.partition(hash) },
    ProjectionExpression: 'PK, SK',
  });
  const others = partition.filter((i) => i.SK !== 'KEY');
  return [
    guardVersion(keys.remove(hash), current.version),
    ...(current.session.org_id && counted ? [countChange(current.session.org_id, 'KEY', -1)] : []),
    ...usernameItems(hash, current.session.org_id, undefined, current.username),
    ...others.slice(0, room).map((i) => ({ op: deleteOp({ PK: String(i.PK), SK: String(i.SK) }) })),
  ];
}

/**
 * A key replaced by a new one with a new hash (a roll: new secret, same session), with `extra`, in
 * one transaction: at no time are both valid or neither.
 */
export async function rollKey(next: CarriedKey, scopes: QuotaScope[], now: number, current: KeyItem, extra: TxItem[]): Promise<void> {
  const added = restoredKeyItems(next, scopes, now);
  // One key in, one out: the organisation's count stays (a transaction may not touch its item twice).
  // Room for the new key's writes and the request's: a transaction holds 100 items.
  await writeItems([...added, ...(await removedKeyItems(current, 90 - added.length - extra.length, false)), ...extra]);
}

/** Spends one unit of the key's live quota of `scope` ('' = key-wide) and counts its rate window. */
export function spendKeyQuota(hash: string, scope: string, limits: CounterLimits, now: number): Promise<Spend> {
  return spend(counterOf(hash, scope), limits, now);
}

/** Gives back a unit the key spent (the organisation refused the request), and its rate count. */
export function refundKeyQuota(receipt: Receipt): Promise<void> {
  return refund(receipt);
}

/** A key as an organisation's export carries it: its session, its basic-auth hash and user name, no counters. */
export type CarriedKey = Omit<KeyItem, 'version' | 'live'>;

/** Every key of an organisation, as stored (an export). */
export async function loadOrgKeys(orgId: string): Promise<CarriedKey[]> {
  return (await loadListed(keyKeys.ofOrg(orgId))).map((i) => {
    const { version: _v, ...k } = keys.fromItem(i);
    return k;
  });
}

/**
 * The writes of a new key, a created one's or one an import carries: the key (409 when its hash is
 * stored), its user-name marker, and fresh live quotas (contract §9: an import's counters restart).
 */
export function restoredKeyItems(k: CarriedKey, scopes: QuotaScope[], now: number): TxItem[] {
  return [
    keys.insert({ ...k, version: 1 }, { taken: () => new Conflict('key already exists') }),
    ...scopes.map((q) => resetQuotaItem(keyKeys.quota(k.session.key_hash, q.scope), q.renewalRate, now)),
    ...usernameItems(k.session.key_hash, k.session.org_id, k.username, undefined),
  ];
}
