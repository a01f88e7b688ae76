/**
 * Refusal tallies (shared/domain/billing.ts): each refusal the check makes for a known
 * organisation is counted by an ADD here, on the refusal path only (refusals that come together
 * share one); the change feed's usage consumer folds them into the figures (usage-figures.ts). A tally is spread over REFUSAL_SHARDS items chosen at
 * random, so a flood of refusals on one API is not one item's write ceiling. Kept a few days: long
 * enough for the stream (24 hours) to have carried every change to the consumer.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { refusedAttr, type BilledRefusal, type TallyOwner } from '../domain/billing';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';

export const REFUSAL_TALLY_ENTITY = 'usage_refusals';
const REFUSAL_SHARDS = 8;
/** How many days a tally is kept: the days an offboarding looks under. */
export const TALLY_KEPT_DAYS = 4;
const KEPT_SECONDS = TALLY_KEPT_DAYS * 24 * 3600;

const tallyKey = (orgId: string, day: string, shard: number, apiId: string): StorageKey => ({
  PK: `USAGEREF#${orgId}#${day}`,
  SK: `${shard}#${apiId}`,
});
defineEntity({ name: REFUSAL_TALLY_ENTITY, key: tallyKey });

/** The partition of an organisation's refusal tallies of `day` (its offboarding empties it). */
export const tallyPartition = (orgId: string, day: string): string => tallyKey(orgId, day, 0, '').PK;

/** Refusals of one (organisation, day, API) waiting for the next write, and who waits for it. */
interface Pending {
  owner: TallyOwner;
  counts: Map<BilledRefusal, number>;
  written: Promise<void>;
  settle: (e?: unknown) => void;
}

/** The refusals gathered while the writes under way are as many as may be. */
let gathering = new Map<string, Pending>();
let inFlight = 0;
/** Tally writes one process keeps under way at once; refusals past them wait for the next. */
const WRITES_IN_FLIGHT = 4;

/**
 * Counts one refusal of `owner`'s request for `reason`; resolves once a write holding it is
 * stored (so a refusal is answered only when it is counted). A refusal is written at once while
 * fewer than WRITES_IN_FLIGHT tally writes are under way; past that, refusals are gathered and
 * written together by the next, one ADD per (organisation, day, API): a process answering many
 * refusals at once (the local stage, a busy container) writes a few items, not one per refusal.
 */
export function countRefusal(owner: TallyOwner, reason: BilledRefusal): Promise<void> {
  const k = `${owner.org_id}\n${owner.day}\n${owner.api_id}`;
  let p = gathering.get(k);
  if (!p) {
    let settle!: Pending['settle'];
    const written = new Promise<void>((resolve, reject) => {
      settle = (e) => (e === undefined ? resolve() : reject(e));
    });
    p = { owner, counts: new Map(), written, settle };
    gathering.set(k, p);
  }
  p.counts.set(reason, (p.counts.get(reason) ?? 0) + 1);
  if (inFlight < WRITES_IN_FLIGHT) void writeGathered();
  return p.written;
}

/** Writes what is gathered now; when done, what was gathered meanwhile. */
async function writeGathered(): Promise<void> {
  const batch = [...gathering.values()];
  gathering = new Map();
  inFlight++;
  try {
    await Promise.all(
      batch.map((p) =>
        addRefusals(p.owner, p.counts).then(
          () => p.settle(),
          (e: unknown) => p.settle(e ?? new Error('refusal tally not written')),
        ),
      ),
    );
  } finally {
    inFlight--;
  }
  if (gathering.size && inFlight < WRITES_IN_FLIGHT) await writeGathered();
}

/** One ADD of `counts` on one of the (organisation, day, API)'s tally items. */
async function addRefusals(owner: TallyOwner, counts: Map<BilledRefusal, number>): Promise<void> {
  const shard = Math.floor(Math.random() * REFUSAL_SHARDS);
  const reasons = [...counts];
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: tallyKey(owner.org_id, owner.day, shard, owner.api_id),
      UpdateExpression:
        `ADD ${reasons.map((_, i) => `#n${i} :n${i}`).join(', ')} ` + 'SET entity = :e, org_id = :o, api_id = :a, #day = :d, #exp = if_not_exists(#exp, :exp)',
      ExpressionAttributeNames: {
        ...Object.fromEntries(reasons.map(([r], i) => [`#n${i}`, refusedAttr(r)])),
        '#day': 'day',
        '#exp': TTL_ATTRIBUTE,
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(reasons.map(([, n], i) => [`:n${i}`, n])),
        ':e': REFUSAL_TALLY_ENTITY,
        ':o': owner.org_id,
        ':a': owner.api_id,
        ':d': owner.day,
        ':exp': Math.floor(Date.parse(`${owner.day}T00:00:00Z`) / 1000) + KEPT_SECONDS,
      },
    }),
  );
}
