/**
 * Gateway keys (session objects), stored only under the SHA-256 of the clear key. The key item
 * holds the session as sent (minus the basic-auth password, kept as a scrypt hash in a private
 * attribute); its live quota counters (each holding a quota window and a rate window, and, for
 * a hot key, their shards: shared/store/live-quota.ts) share its partition, so the data-plane
 * check touches one partition key per key. The clear key is never a storage key.
 */
import { Conflict, NotFound, PreconditionFailed } from '../errors';
import type { QuotaScope } from '../domain/sessions';
import type { KeySession } from '../schemas/keys';
import { batchGet, getItem } from './db/items';
import { queryAll } from './db/paging';
import type { StorageKey } from './db/storage-key';
import { deleteOp, putOp, transactWrite, type TxItem } from './db/transactions';
import {
  CounterIsSharded,
  demoteCounter,
  ensureQuotaItem,
  liveOf,
  refund,
  resetQuotaItem,
  spend,
  type CounterRef,
  type LiveQuota,
  type Receipt,
  type Spend,
  type SpendLimits,
} from './live-quota';
import { orgMustExist } from './organisations';
import { nowSeconds } from '../domain/quota';

export const keyKeys = {
  key: (hash: string): StorageKey => ({ PK: `KEY#${hash}`, SK: 'KEY' }),
  partition: (hash: string) => `KEY#${hash}`,
  /** Live quota of the key (scope '') or of one API under per-API limits (scope = api_id). */
  quota: (hash: string, scope = ''): StorageKey => ({ PK: `KEY#${hash}`, SK: scope ? `QUOTA#${scope}` : 'QUOTA' }),
  /** Shard `i` of a hot key's counter of `scope` (shared/store/live-quota.ts). */
  shard: (hash: string, scope: string, i: number): StorageKey => ({ PK: `KEY#${hash}`, SK: `SHARD#${scope}#${i}` }),
  shardPrefix: (scope: string) => `SHARD#${scope}#`,
  /** Basic-auth user name -> key hash, unique within the key's organisation ('' for org-less keys). */
  username: (orgId: string, user: string): StorageKey => ({ PK: `ORG#${orgId}#KEYUSER#${user}`, SK: 'KEYUSER' }),
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

function keyItem(k: KeyItem) {
  return {
    ...keyKeys.key(k.session.key_hash),
    entity: 'key',
    session: k.session,
    version: k.version,
    ...(k.basic_auth_hash ? { basic_auth_hash: k.basic_auth_hash } : {}),
    ...(k.username ? { username: k.username } : {}),
  };
}

/**
 * The user-name marker moves with the name. Names are unique within the key's organisation only
 * (as the reference gateway scopes them), so one organisation neither learns nor blocks another's.
 */
function usernameItems(hash: string, orgId: string, next: string | undefined, previous: string | undefined): TxItem[] {
  if (next === previous) return [];
  const items: TxItem[] = [];
  if (previous) items.push({ op: deleteOp(keyKeys.username(orgId, previous)) });
  if (next) {
    items.push({
      op: putOp({ ...keyKeys.username(orgId, next), entity: 'unique', key_hash: hash }, 'attribute_not_exists(PK)'),
      onConditionFail: () => new Conflict(`basic-auth user ${next} already has a key in this organisation`),
    });
  }
  return items;
}

/**
 * Creates a key, its user-name marker (409 when taken) and a fresh live quota, in one
 * transaction; the key's organisation must exist (422), unless it is blank (a key the gateway
 * manages itself).
 */
export async function createKey(k: Omit<KeyItem, 'version'>, scopes: QuotaScope[], now: number): Promise<void> {
  const hash = k.session.key_hash;
  const org = k.session.org_id;
  await transactWrite([
    ...(org ? [orgMustExist(org)] : []),
    {
      op: putOp(keyItem({ ...k, version: 1 }), 'attribute_not_exists(PK)'),
      onConditionFail: () => new Conflict('key already exists'),
    },
    ...scopes.map((q) => resetQuotaItem(keyKeys.quota(hash, q.scope), q.renewalRate, now)),
    ...usernameItems(hash, org, k.username, undefined),
  ]);
}

/**
 * The key and its key-wide live quota in one consistent Query (SK between `KEY` and `QUOTA`
 * holds exactly those two), so a read costs one round trip (two for a hot key, whose shards
 * are summed).
 */
export async function getKeyItem(hash: string): Promise<KeyItem | undefined> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :key AND :quota',
    ExpressionAttributeValues: { ':pk': keyKeys.partition(hash), ':key': keyKeys.key(hash).SK, ':quota': keyKeys.quota(hash).SK },
    ConsistentRead: true,
  });
  const item = items.find((i) => i.SK === 'KEY');
  if (!item) return undefined;
  const quota = items.find((i) => i.SK === 'QUOTA');
  const live = quota ? await liveOf(counterOf(hash, ''), quota, nowSeconds()) : undefined;
  return {
    session: item.session as StoredKey,
    version: Number(item.version),
    ...(typeof item.basic_auth_hash === 'string' ? { basic_auth_hash: item.basic_auth_hash } : {}),
    ...(typeof item.username === 'string' ? { username: item.username } : {}),
    ...(live ? { live } : {}),
  };
}

/** The stored session alone, with one GetItem: what the check and ownership checks read. */
export async function getKeySession(hash: string): Promise<StoredKey | undefined> {
  const item = await getItem(keyKeys.key(hash), true);
  return item ? (item.session as StoredKey) : undefined;
}

/** The stored sessions of many key hashes, by hash (BatchGetItem, 100 keys a call). */
export async function getKeySessions(hashes: readonly string[]): Promise<Map<string, StoredKey>> {
  const items = await batchGet(hashes.map((h) => keyKeys.key(h)), true);
  return new Map(items.map((i) => (i.session as StoredKey)).map((k) => [k.key_hash, k]));
}

/** Key hash of a basic-auth user name of the organisation, when one of its keys has it. */
export async function hashOfUsername(orgId: string, user: string): Promise<string | undefined> {
  const item = await getItem(keyKeys.username(orgId, user), true);
  return typeof item?.key_hash === 'string' ? item.key_hash : undefined;
}

/**
 * Replaces a key read at `previous.version` (412 when it moved on). The live quota is reset in
 * the same transaction unless `reset` is false (suppress_reset); then only missing ones are made.
 */
export async function replaceKey(next: Omit<KeyItem, 'version'>, previous: KeyItem, scopes: QuotaScope[], reset: boolean, now: number): Promise<number> {
  const hash = next.session.key_hash;
  const version = previous.version + 1;
  const items = (): TxItem[] => [
    {
      op: putOp(keyItem({ ...next, version }), 'attribute_exists(PK) AND version = :v', { ':v': previous.version }),
      onConditionFail: () => new PreconditionFailed(),
    },
    ...scopes.map((q) => (reset ? resetQuotaItem : ensureQuotaItem)(keyKeys.quota(hash, q.scope), q.renewalRate, now)),
    ...usernameItems(hash, previous.session.org_id, next.username, previous.username),
  ];
  for (let attempt = 0; ; attempt++) {
    try {
      await transactWrite(items());
      return version;
    } catch (e) {
      // A reset met a hot key's shards: fold them back into the counter (exactly), then reset it.
      if (!(e instanceof CounterIsSharded) || attempt >= 3) throw e;
      const scope = scopes.find((q) => keyKeys.quota(hash, q.scope).SK === e.head.SK)?.scope ?? '';
      await demoteCounter(counterOf(hash, scope), now);
    }
  }
}

/** Deletes a key with its live quotas, rate windows and user-name marker. */
export async function deleteKey(hash: string): Promise<void> {
  const current = await getKeyItem(hash);
  if (!current) throw new NotFound('key not found');
  const partition = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keyKeys.partition(hash) },
    ProjectionExpression: 'PK, SK',
  });
  const others = partition.filter((i) => i.SK !== 'KEY');
  const items: TxItem[] = [
    {
      op: deleteOp(keyKeys.key(hash), 'version = :v', { ':v': current.version }),
      onConditionFail: () => new Conflict('the key changed while it was being deleted; try again'),
    },
    ...usernameItems(hash, current.session.org_id, undefined, current.username),
    // Rate windows beyond the transaction's size expire by TTL on their own.
    ...others.slice(0, 90).map((i) => ({ op: deleteOp({ PK: String(i.PK), SK: String(i.SK) }) })),
  ];
  await transactWrite(items);
}

/** Spends one unit of the key's live quota of `scope` ('' = key-wide) and counts its rate window. */
export function spendKeyQuota(hash: string, scope: string, limits: SpendLimits, now: number): Promise<Spend> {
  return spend(counterOf(hash, scope), limits, now);
}

/** Gives back a unit the key spent (the organisation refused the request), and its rate count. */
export function refundKeyQuota(receipt: Receipt): Promise<void> {
  return refund(receipt);
}
