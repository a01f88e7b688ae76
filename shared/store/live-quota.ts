/**
 * Live quotas and rate windows: changed only by conditional atomic updates (design in the
 * header of shared/domain/quota.ts). `quota_max` is not stored in the live item: each spend
 * passes the limit in force, so a policy change applies at once without a migration.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isUnlimited, renewsAt, type RateWindow } from '../domain/quota';
import { ddb, tableName } from './db/client';
import { isConditionFailure } from './db/items';
import type { StorageKey } from './db/storage-key';
import type { TxItem } from './db/transactions';

type Key = StorageKey;

export interface LiveQuota {
  used: number;
  renews: number;
}

export type Spend = { ok: true; used: number; renews: number } | { ok: false; used: number; renews: number };

/** Transaction item that resets a live quota: nothing used, a window starting now. */
export function resetQuotaItem(key: Key, renewalRate: number | undefined, now: number): TxItem {
  return { op: { Put: { TableName: tableName(), Item: { ...key, entity: 'live_quota', used: 0, renews: renewsAt(now, renewalRate) } } } };
}

/** Transaction item that creates the live quota only when it is missing (no reset). */
export function ensureQuotaItem(key: Key, renewalRate: number | undefined, now: number): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET entity = :e, used = if_not_exists(used, :zero), renews = if_not_exists(renews, :r)',
        ExpressionAttributeValues: { ':e': 'live_quota', ':zero': 0, ':r': renewsAt(now, renewalRate) },
      },
    },
  };
}

/**
 * Spends one unit. Under any concurrency at most `max` units are spent per window: the spend is
 * a conditional ADD, and an elapsed window is renewed by exactly one conditional SET whose
 * winner has spent its unit; losers retry the spend in the new window.
 */
export async function spendQuota(key: Key, max: number, renewalRate: number, now: number): Promise<Spend> {
  const unlimited = isUnlimited(max);
  for (;;) {
    try {
      const out = await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD used :one',
          ConditionExpression: unlimited ? 'renews > :now' : 'used < :max AND renews > :now',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ...(unlimited ? {} : { ':max': max }) },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { ok: true, used: Number(out.Attributes?.used), renews: Number(out.Attributes?.renews) };
    } catch (e) {
      if (!isConditionFailure(e)) throw e;
      const old = e.Item;
      const renews = numberAttr(old?.renews);
      if (old && renews > now) return { ok: false, used: numberAttr(old.used), renews };
      const renewed = await renew(key, renewalRate, now);
      if (renewed) return { ok: true, used: 1, renews: renewed };
    }
  }
}

/** The failure's old item comes back in the wire form ({N: "3"}), not the document form. */
function numberAttr(v: unknown): number {
  if (v && typeof v === 'object' && 'N' in v) return Number((v as { N: string }).N);
  return Number(v ?? 0);
}

/** Starts a new window with this request's unit spent; false when another request renewed first. */
async function renew(key: Key, renewalRate: number, now: number): Promise<number | false> {
  const next = renewsAt(now, renewalRate);
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET entity = :e, used = :one, renews = :next',
        ConditionExpression: 'attribute_not_exists(renews) OR renews <= :now',
        ExpressionAttributeValues: { ':e': 'live_quota', ':one': 1, ':next': next, ':now': now },
      }),
    );
    return next;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/**
 * Gives back a unit spent in the window ending at `renews` (the organisation refused the
 * request). A window renewed since is left alone: its count never held that unit.
 */
export async function refundQuota(key: Key, renews: number): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD used :minus',
        ConditionExpression: 'renews = :r AND used > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':r': renews, ':zero': 0 },
      }),
    );
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
  }
}

/** Counts one request in a fixed rate window; false when the window is full. The item expires by TTL. */
export async function spendRate(key: Key, window: RateWindow): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD #c :one SET entity = :e, expires_at = :end',
        ConditionExpression: 'attribute_not_exists(#c) OR #c < :limit',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':e': 'rate_window', ':end': window.end, ':limit': window.limit },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}
