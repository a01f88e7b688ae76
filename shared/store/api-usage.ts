import { counterExpiry } from '../domain/analytics';
import type { UsageDelta, UsageItem } from '../domain/usage';
import { mapLimit } from '../lib/concurrency';
import { tableName } from './db/client';
import { queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { defineEntity } from './db/entity';
import type { TxItem } from './db/transactions';
import { setIfBetter } from './db/set-if-better';

/**
 * Hourly usage of an API as an organisation's keys reported it: one partition per (organisation,
 * API), sorted by hour, so a chart's range is one Query with `SK BETWEEN`. The organisation is
 * part of the key, so one organisation's traffic on an id never shows in another's chart.
 */
const usageKey = (orgId: string, apiId: string, hour: string): StorageKey => ({ PK: `AUSE#${orgId}#${apiId}`, SK: hour });
/** The partition of an API's hourly usage in an organisation (its offboarding empties it). */
export const apiUsagePartition = (orgId: string, apiId: string): string => usageKey(orgId, apiId, '').PK;

/** Conditional maximum updates in flight at once. */
const MAXIMA_WRITERS = 16;

/** One (organisation, API, hour) usage counter's share of a call: atomic ADDs, no read first. */
export function usageUpdate(d: UsageDelta): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: usageKey(d.org_id, d.api_id, d.hour),
        UpdateExpression:
          'ADD #hits :hits, #success :success, #error :error, #ls :ls, #us :us SET #entity = :entity, #org = :org, #api = :api, #hour = :hour, #exp = :exp',
        ExpressionAttributeNames: {
          '#hits': 'hits',
          '#success': 'success',
          '#error': 'error',
          '#ls': 'latency_sum',
          '#us': 'upstream_latency_sum',
          '#entity': 'entity',
          '#org': 'org_id',
          '#api': 'api_id',
          '#hour': 'hour',
          '#exp': TTL_ATTRIBUTE,
        },
        ExpressionAttributeValues: {
          ':hits': d.hits,
          ':success': d.success,
          ':error': d.error,
          ':ls': d.latency_sum,
          ':us': d.upstream_latency_sum,
          ':entity': 'api_usage',
          ':org': d.org_id,
          ':api': d.api_id,
          ':hour': d.hour,
          ':exp': counterExpiry(d.hour),
        },
      },
    },
  };
}

/**
 * Brings each usage counter's largest latency up to this call's (only ever raised, so running it
 * again after a retry changes nothing twice).
 */
export async function saveUsageMaxima(deltas: readonly UsageDelta[]): Promise<void> {
  await mapLimit([...deltas], MAXIMA_WRITERS, (d) => setIfBetter(usageKey(d.org_id, d.api_id, d.hour), 'max_latency', d.max_latency, '>'));
}

/** Every hourly usage counter of an organisation's API from `firstHour` to `lastHour` inclusive: one Query, followed page by page. */
export async function loadApiUsage(orgId: string, apiId: string, firstHour: string, lastHour: string): Promise<UsageItem[]> {
  const pk = usageKey(orgId, apiId, firstHour).PK;
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': pk, ':low': firstHour, ':high': lastHour },
  });
  return items as unknown as UsageItem[];
}

// Keyed here; written by the functions of this module and by the batches' transactions (./analytics-batches.ts).
defineEntity({ name: 'api_usage', key: usageKey });
