/**
 * An organisation's offboarding run (contract §9): one item per organisation, outside the
 * organisation's own partitions so it outlives them, holding where the run is and what it deleted.
 * Every transaction of the run carries its move (`seq` one further, on the condition that it is
 * where the run read it): two workers of one run never both delete, and what an item counted is
 * counted once. Every move is a record of the table's stream, which is what hands the run to its
 * next worker (functions/organisations/offboarding-feed.ts).
 */
import type { OffboardingRecord } from '../domain/offboarding';
import { Conflict, NotFound } from '../errors';
import { image, type FeedRecord } from './change-feed';
import { tableName } from './db/client';
import { defineEntity } from './db/entity';
import { batchGet, conditionalUpdate, getItem } from './db/items';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { transactWrite, writeItems, type StoredAttrs, type TxItem } from './db/transactions';
import { OFFBOARDING_SINCE, orgKeys } from './organisations';

export type { FeedRecord };

const OFFBOARDING_ENTITY = 'offboarding';
const runKey = (orgId: string): StorageKey => ({ PK: `OFFBOARD#${orgId}`, SK: 'RUN' });
defineEntity({ name: OFFBOARDING_ENTITY, key: runKey });

/** The run as stored: its record, its position (`seq`), where its step goes on from, and when the organisation was made. */
export type StoredRun = OffboardingRecord & { seq: number; cursor: number; org_created_at: string };

function runOf(item: Record<string, unknown>): StoredRun {
  return {
    org_id: String(item.org_id),
    state: item.state as StoredRun['state'],
    step: Number(item.step ?? 0),
    cursor: Number(item.cursor ?? 0),
    org_created_at: String(item.org_created_at ?? item.started_at),
    seq: Number(item.seq ?? 0),
    started_at: String(item.started_at),
    deleting_from_ms: Number(item.deleting_from_ms ?? 0),
    ...(typeof item.finished_at === 'string' ? { finished_at: item.finished_at } : {}),
    deleted: (item.deleted as Record<string, number> | undefined) ?? {},
  };
}

/** The organisation's run (consistent read), or undefined when none was started. */
export async function loadRun(orgId: string): Promise<StoredRun | undefined> {
  const item = await getItem(runKey(orgId), true);
  return item ? runOf(item) : undefined;
}

/** Which of `orgIds` are being (or were) offboarded: what the change feed's consumers leave alone. */
export async function offboardedAmong(orgIds: Iterable<string>): Promise<Set<string>> {
  const ids = [...new Set(orgIds)].filter((o) => o !== '');
  if (!ids.length) return new Set();
  const items = await batchGet(ids.map(runKey), true, ['org_id']);
  return new Set(items.map((i) => String(i.org_id)));
}

class AlreadyOffboarding extends Error {}

/**
 * Starts the run in one transaction: the organisation is marked (inactive, `offboarding_since`,
 * its version moved so a PUT read before fails its If-Match) and the run stored. Answers false
 * when a run had already started; 404 when the organisation does not exist.
 */
export async function insertRun(orgId: string, orgCreatedAt: string, nowMs: number, deletingFromMs: number): Promise<boolean> {
  const now = new Date(nowMs).toISOString();
  try {
    await transactWrite([
      {
        op: {
          Update: {
            TableName: tableName(),
            Key: orgKeys.org(orgId),
            UpdateExpression: 'SET active = :off, #since = :now, updated_at = :now, version = version + :one',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#since)',
            ExpressionAttributeNames: { '#since': OFFBOARDING_SINCE },
            ExpressionAttributeValues: { ':off': false, ':now': now, ':one': 1 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        onConditionFail: (old?: StoredAttrs) => (old ? new AlreadyOffboarding() : new NotFound(`organisation ${orgId} not found`)),
      },
      {
        op: {
          Put: {
            TableName: tableName(),
            Item: {
              ...runKey(orgId),
              entity: OFFBOARDING_ENTITY,
              org_id: orgId,
              state: 'fencing',
              step: 0,
              cursor: 0,
              seq: 0,
              org_created_at: orgCreatedAt,
              started_at: now,
              deleting_from_ms: deletingFromMs,
              deleted: {},
            },
            // A run that finished for an earlier organisation of the same id is replaced.
            ConditionExpression: 'attribute_not_exists(PK) OR #s = :done',
            ExpressionAttributeNames: { '#s': 'state' },
            ExpressionAttributeValues: { ':done': 'done' },
          },
        },
        onConditionFail: () => new AlreadyOffboarding(),
      },
    ]);
    return true;
  } catch (e) {
    if (e instanceof AlreadyOffboarding) return false;
    throw e;
  }
}

/** What a move changes besides `seq`: the counts of what its transaction deleted, the state, the step. */
export interface RunMove {
  deleted?: Record<string, number>;
  state?: StoredRun['state'];
  step?: number;
  cursor?: number;
  /** The run's record is kept this many seconds from now (set when it is done). */
  keepSeconds?: number;
}

/** The move of the run read at `seq`, as one item of a transaction: fails when another worker moved it. */
export function runMove(orgId: string, seq: number, move: RunMove, nowMs = Date.now()): TxItem {
  const names: Record<string, string> = { '#seq': 'seq' };
  const values: Record<string, unknown> = { ':seq': seq, ':next': seq + 1 };
  const sets = ['#seq = :next'];
  Object.entries(move.deleted ?? {}).forEach(([entity, n], i) => {
    names[`#e${i}`] = entity;
    values[`:n${i}`] = n;
    sets.push(`deleted.#e${i} = if_not_exists(deleted.#e${i}, :zero) + :n${i}`);
  });
  if (move.deleted && Object.keys(move.deleted).length) values[':zero'] = 0;
  if (move.state) {
    names['#state'] = 'state';
    values[':state'] = move.state;
    sets.push('#state = :state');
  }
  if (move.step !== undefined) {
    values[':step'] = move.step;
    sets.push('step = :step');
  }
  if (move.cursor !== undefined) {
    values[':cursor'] = move.cursor;
    sets.push('#cursor = :cursor');
    names['#cursor'] = 'cursor';
  }
  if (move.keepSeconds !== undefined) {
    names['#ttl'] = TTL_ATTRIBUTE;
    values[':ttl'] = Math.floor(nowMs / 1000) + move.keepSeconds;
    values[':fin'] = new Date(nowMs).toISOString();
    sets.push('#ttl = :ttl', 'finished_at = :fin');
  }
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: runKey(orgId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: '#seq = :seq',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    onConditionFail: () => new RunMoved(),
  };
}

/** Another worker moved the run since it was read: read it again. */
export class RunMoved extends Error {}

/** A move of its own (no deletion): hands the run to its next worker through the stream. */
export async function moveRun(orgId: string, seq: number, move: RunMove = {}): Promise<void> {
  // One item: writeItems sends it as a plain UpdateItem, not a transaction.
  await writeItems([runMove(orgId, seq, move)]);
}

/** Moves a run whatever its position: what DELETE does again to wake a run whose worker gave up. */
export async function nudgeRun(orgId: string): Promise<void> {
  // A run that is done (or gone) is left as it is: the failed condition is the answer.
  await conditionalUpdate({
    TableName: tableName(),
    Key: runKey(orgId),
    UpdateExpression: 'ADD #seq :one',
    ConditionExpression: 'attribute_exists(PK) AND #s <> :done',
    ExpressionAttributeNames: { '#seq': 'seq', '#s': 'state' },
    ExpressionAttributeValues: { ':one': 1, ':done': 'done' },
  });
}

/** The organisations whose runs the records show not done, each once. */
export function runsToWork(records: readonly FeedRecord[]): string[] {
  const orgs = new Set<string>();
  for (const r of records) {
    const run = image(r.dynamodb?.NewImage);
    if (run?.entity === OFFBOARDING_ENTITY && run.state !== 'done') orgs.add(String(run.org_id));
  }
  return [...orgs];
}

/**
 * The delete of a finished run, in the transaction that imports an organisation of the same id
 * again (contract §9): the record gives way to the organisation it stood for. Fails (409) when the
 * run is not done, or started meanwhile.
 */
export const finishedRunRemoval = (orgId: string): TxItem => ({
  op: {
    Delete: {
      TableName: tableName(),
      Key: runKey(orgId),
      ConditionExpression: 'attribute_not_exists(PK) OR #s = :done',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':done': 'done' },
    },
  },
  onConditionFail: () => new Conflict(`organisation ${orgId} is being offboarded`),
});
