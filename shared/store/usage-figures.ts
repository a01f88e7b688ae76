/**
 * The usage figures (shared/domain/billing.ts), written only by the change feed's usage consumer:
 * - a day's figures per (organisation, API): partition BILLDAY#<org>#<month>, sorted by day, so an
 *   organisation's month is one Query;
 * - a month's figures per organisation: partition BILLMONTH#<month>#<bucket>, one of MONTH_BUCKETS,
 *   so every organisation's month is that many Queries side by side;
 * - each counted item's position in the stream (BILLMARK#<item>): the sequence number of the last
 *   of its changes the figures hold. The position moves in the same transaction as the figures, on
 *   the condition that it is where it was read, so a record handed over twice, in any batch, is
 *   counted once. Positions are kept a few days (the stream keeps records for 24 hours).
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { figuresOfItem, monthBucket, monthOf, MONTH_BUCKETS, refusedAttr, type Figures, type FoldedRun, type TallyChange } from '../domain/billing';
import { mapLimit } from '../lib/concurrency';
import { BILLED_REFUSALS } from '../schemas/value-lists';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { batchGet, queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import type { TransactItem } from './db/transactions';

const MARK_KEPT_SECONDS = 3 * 24 * 3600;

const figureKeys = {
  day: (orgId: string, month: string, day: string, apiId: string): StorageKey => ({ PK: `BILLDAY#${orgId}#${month}`, SK: `${day}#${apiId}` }),
  month: (month: string, bucket: number, orgId: string): StorageKey => ({ PK: `BILLMONTH#${month}#${bucket}`, SK: orgId }),
  mark: (source: string): StorageKey => ({ PK: `BILLMARK#${source}`, SK: 'MARK' }),
};
defineEntity({ name: 'usage_day', key: figureKeys.day });
defineEntity({ name: 'usage_month', key: figureKeys.month });
defineEntity({ name: 'usage_mark', key: figureKeys.mark });

/** What an organisation's offboarding deletes of the figures: its day partitions and its month items of `months`. */
export const figuresOfOrg = (orgId: string, months: readonly string[]) => ({
  dayPartitions: months.map((m) => figureKeys.day(orgId, m, '', '').PK),
  monthItems: months.map((m) => figureKeys.month(m, monthBucket(orgId), orgId)),
});
/** The position kept for a counted item (it is deleted with the item). */
export const markOf = (counted: StorageKey): StorageKey => figureKeys.mark(`${counted.PK}|${counted.SK}`);

/** Where each of `sources` stands (its last counted change), for those that have one. */
export async function loadMarks(sources: readonly string[]): Promise<Map<string, string>> {
  const items = await batchGet(sources.map(figureKeys.mark), true, ['source', 'seq']);
  return new Map(items.map((i) => [String(i.source), String(i.seq)]));
}

/** The ADD of a change's figures, with the attributes that say whose they are. */
function figuresUpdate(key: StorageKey, entity: string, c: TallyChange, owner: Record<string, string>): TransactItem {
  const names: Record<string, string> = { '#allowed': 'allowed' };
  const values: Record<string, unknown> = { ':allowed': c.allowed, ':e': entity };
  const adds = ['#allowed :allowed'];
  BILLED_REFUSALS.forEach((reason, i) => {
    const n = c.refused[reason];
    if (!n) return;
    names[`#r${i}`] = refusedAttr(reason);
    values[`:r${i}`] = n;
    adds.push(`#r${i} :r${i}`);
  });
  const sets = ['entity = :e'];
  Object.entries(owner).forEach(([attr, v], i) => {
    names[`#o${i}`] = attr;
    values[`:o${i}`] = v;
    sets.push(`#o${i} = :o${i}`);
  });
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `ADD ${adds.join(', ')} SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A source's position moved from `was` (absent: never counted) to `to`. */
function movePosition(source: string, was: string | undefined, to: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: figureKeys.mark(source),
      UpdateExpression: 'SET entity = :e, #src = :src, seq = :to, #exp = :exp',
      ConditionExpression: was === undefined ? 'attribute_not_exists(seq)' : 'seq = :was',
      ExpressionAttributeNames: { '#src': 'source', '#exp': TTL_ATTRIBUTE },
      ExpressionAttributeValues: {
        ':e': 'usage_mark',
        ':src': source,
        ':to': to,
        ':exp': Math.floor(Date.now() / 1000) + MARK_KEPT_SECONDS,
        ...(was === undefined ? {} : { ':was': was }),
      },
    },
  };
}

/**
 * Adds a folded run to the figures and moves its sources' positions, in one transaction.
 * Answers false when another writer moved a position or the transaction lost a race: read the
 * positions again and fold anew.
 */
export async function addRun(run: FoldedRun, marks: ReadonlyMap<string, string>): Promise<boolean> {
  const items: TransactItem[] = [
    ...[...run.positions].map(([source, to]) => movePosition(source, marks.get(source), to)),
    ...[...run.days.values()].map((c) =>
      figuresUpdate(figureKeys.day(c.org_id, monthOf(c.day), c.day, c.api_id), 'usage_day', c, { org_id: c.org_id, api_id: c.api_id, day: c.day }),
    ),
    ...[...run.months.values()].map((c) => {
      const month = monthOf(c.day);
      return figuresUpdate(figureKeys.month(month, monthBucket(c.org_id), c.org_id), 'usage_month', c, { org_id: c.org_id, month });
    }),
  ];
  if (!items.length) return true;
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (e) {
    if (e instanceof TransactionCanceledException) return false;
    throw e;
  }
}

/** Every organisation's figures for `month` (those with any), by organisation id. */
export async function loadMonthFigures(month: string): Promise<{ org_id: string; figures: Figures }[]> {
  const buckets = Array.from({ length: MONTH_BUCKETS }, (_, b) => b);
  const pages = await mapLimit(buckets, MONTH_BUCKETS, (b) =>
    queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': figureKeys.month(month, b, '').PK } }),
  );
  return pages
    .flat()
    .map((i) => ({ org_id: String(i.org_id), figures: figuresOfItem(i) }))
    .sort((a, b) => (a.org_id < b.org_id ? -1 : a.org_id > b.org_id ? 1 : 0));
}

/** One organisation's figures for `month`, per day and API, in day order. */
export async function loadOrgMonth(orgId: string, month: string): Promise<{ day: string; api_id: string; figures: Figures }[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': figureKeys.day(orgId, month, '', '').PK },
  });
  return items.map((i) => ({ day: String(i.day), api_id: String(i.api_id), figures: figuresOfItem(i) }));
}
