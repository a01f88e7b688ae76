/**
 * Gateway keys (session objects), stored only under the SHA-256 of the clear key. The key item
 * holds the session as sent (minus the basic-auth password, kept as a scrypt hash in a private
 * attribute); its live quota is a separate item in the same partition.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound, PreconditionFailed, Unprocessable } from '../errors';
import { applyPolicies } from '../domain/policies';
import { apiIdsOf, policyIdsOf, type QuotaScope } from '../domain/sessions';
import type { KeySession } from '../schemas/keys';
import { missingApis } from './apis';
import { sessionKeys } from './keys';
import { ddb, tableName } from './client';
import { batchGet, getItem } from './items';
import { getPolicies, resolvePolicies, type StoredPolicy } from './policies';
import { ensureQuotaItem, resetQuotaItem, type LiveQuota } from './live-quota';
import { orgExistsCheck } from './organisations';
import { forgetSessions } from './session-cache';
import { transactWrite, type TxItem } from './transact';

export type StoredKey = KeySession & { key_hash: string; org_id: string; date_created: string; last_updated: string };

export interface KeyItem {
  session: StoredKey;
  version: number;
  basic_auth_hash?: string;
  username?: string;
  /** The key-wide live quota as read with the key (reads only; writes never take it from here). */
  live?: LiveQuota;
}

/**
 * Every API and policy a session names must exist (422, naming the missing ones). Answers the
 * policies, which the caller needs for the effective session. With `withinOrg` (dashboard
 * writes) an API or policy of another organisation, or a policy without one, counts as missing:
 * the answer is then byte for byte the one for an id that exists nowhere.
 */
export async function loadReferences(session: KeySession, withinOrg?: string): Promise<StoredPolicy[]> {
  const policyIds = policyIdsOf(session);
  const [unknownApis, policies] = await Promise.all([missingApis(apiIdsOf(session.access_rights), withinOrg), resolvePolicies(policyIds, withinOrg)]);
  if (unknownApis.length) throw new Unprocessable(`unknown API: ${unknownApis.join(', ')}`);
  if (policies.missing.length) throw new Unprocessable(`unknown policy: ${policies.missing.join(', ')}`);
  // Keep apply_policies order: later policies are merged after earlier ones.
  return policyIds.map((id) => policies.found.find((p) => p.id === id)!);
}

/** The session a check enforces: the key under its policies (missing policies grant nothing). */
export async function effectiveSession(session: StoredKey): Promise<StoredKey> {
  const ids = policyIdsOf(session);
  if (!ids.length) return session;
  const policies = await getPolicies(ids);
  return applyPolicies(session, ids.flatMap((id) => policies.filter((p) => p.id === id)));
}

function keyItem(k: KeyItem) {
  return {
    ...sessionKeys.key(k.session.key_hash),
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
  if (previous) items.push({ op: { Delete: { TableName: tableName(), Key: sessionKeys.username(orgId, previous) } } });
  if (next) {
    items.push({
      op: {
        Put: {
          TableName: tableName(),
          Item: { ...sessionKeys.username(orgId, next), entity: 'unique', key_hash: hash },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      onConditionFail: () => new Conflict(`basic-auth user ${next} already has a key in this organisation`),
    });
  }
  return items;
}

/** Creates a key, its user-name marker (409 when taken) and a fresh live quota, in one transaction. */
export async function createKey(k: Omit<KeyItem, 'version'>, scopes: QuotaScope[], now: number, orgMustExist = false): Promise<void> {
  const hash = k.session.key_hash;
  const org = k.session.org_id;
  await transactWrite([
    ...(orgMustExist ? [{ op: orgExistsCheck(org), onConditionFail: () => new Unprocessable(`organisation ${org} does not exist`) }] : []),
    {
      op: { Put: { TableName: tableName(), Item: keyItem({ ...k, version: 1 }), ConditionExpression: 'attribute_not_exists(PK)' } },
      onConditionFail: () => new Conflict('key already exists'),
    },
    ...scopes.map((q) => resetQuotaItem(sessionKeys.quota(hash, q.scope), q.renewalRate, now)),
    ...usernameItems(hash, org, k.username, undefined),
  ]);
}

/**
 * The key and its key-wide live quota in one consistent Query (SK between `KEY` and `QUOTA`
 * holds exactly those two), so a read costs one round trip.
 */
export async function getKeyItem(hash: string): Promise<KeyItem | undefined> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :key AND :quota',
      ExpressionAttributeValues: { ':pk': sessionKeys.partition(hash), ':key': sessionKeys.key(hash).SK, ':quota': sessionKeys.quota(hash).SK },
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.find((i) => i.SK === 'KEY');
  if (!item) return undefined;
  const quota = out.Items?.find((i) => i.SK === 'QUOTA');
  return {
    session: item.session as StoredKey,
    version: Number(item.version),
    ...(typeof item.basic_auth_hash === 'string' ? { basic_auth_hash: item.basic_auth_hash } : {}),
    ...(typeof item.username === 'string' ? { username: item.username } : {}),
    ...(quota ? { live: { used: Number(quota.used ?? 0), renews: Number(quota.renews ?? 0) } } : {}),
  };
}

/** The stored session alone, with one GetItem: what the check and ownership checks read. */
export async function getKeySession(hash: string): Promise<StoredKey | undefined> {
  const item = await getItem(sessionKeys.key(hash), true);
  return item ? (item.session as StoredKey) : undefined;
}

/** The stored sessions of many key hashes, by hash (BatchGetItem, 100 keys a call). */
export async function getKeySessions(hashes: readonly string[]): Promise<Map<string, StoredKey>> {
  const items = await batchGet(hashes.map((h) => sessionKeys.key(h)), true);
  return new Map(items.map((i) => (i.session as StoredKey)).map((k) => [k.key_hash, k]));
}

/** Key hash of a basic-auth user name of the organisation, when one of its keys has it. */
export async function hashOfUsername(orgId: string, user: string): Promise<string | undefined> {
  const item = await getItem(sessionKeys.username(orgId, user), true);
  return typeof item?.key_hash === 'string' ? item.key_hash : undefined;
}

/**
 * Replaces a key read at `previous.version` (412 when it moved on). The live quota is reset in
 * the same transaction unless `reset` is false (suppress_reset); then only missing ones are made.
 */
export async function replaceKey(next: Omit<KeyItem, 'version'>, previous: KeyItem, scopes: QuotaScope[], reset: boolean, now: number): Promise<number> {
  const hash = next.session.key_hash;
  const version = previous.version + 1;
  await transactWrite([
    {
      op: {
        Put: {
          TableName: tableName(),
          Item: keyItem({ ...next, version }),
          ConditionExpression: 'attribute_exists(PK) AND version = :v',
          ExpressionAttributeValues: { ':v': previous.version },
        },
      },
      onConditionFail: () => new PreconditionFailed(),
    },
    ...scopes.map((q) => (reset ? resetQuotaItem : ensureQuotaItem)(sessionKeys.quota(hash, q.scope), q.renewalRate, now)),
    ...usernameItems(hash, previous.session.org_id, next.username, previous.username),
  ]);
  forgetSessions();
  return version;
}

/** Deletes a key with its live quotas, rate windows and user-name marker. */
export async function deleteKey(hash: string): Promise<void> {
  const current = await getKeyItem(hash);
  if (!current) throw new NotFound('key not found');
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': sessionKeys.partition(hash) },
      ProjectionExpression: 'PK, SK',
    }),
  );
  const others = (out.Items ?? []).filter((i) => i.SK !== 'KEY');
  const items: TxItem[] = [
    {
      op: {
        Delete: {
          TableName: tableName(),
          Key: sessionKeys.key(hash),
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':v': current.version },
        },
      },
      onConditionFail: () => new Conflict('the key changed while it was being deleted; try again'),
    },
    ...usernameItems(hash, current.session.org_id, undefined, current.username),
    // Rate windows beyond the transaction's size expire by TTL on their own.
    ...others.slice(0, 90).map((i) => ({ op: { Delete: { TableName: tableName(), Key: { PK: String(i.PK), SK: String(i.SK) } } } })),
  ];
  await transactWrite(items);
  forgetSessions();
}
