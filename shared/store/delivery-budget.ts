/**
 * Each organisation's budget of webhook attempts in flight (contract §11, docs/reference/limits.md): one
 * item per organisation holding a lease per running attempt, `leases.<delivery id> = <lease end
 * in ms>`. A claim is one conditional update that adds a lease only while fewer than the budget
 * are held, so the budget is exact across every worker and every Lambda container. An attempt
 * that dies keeps its lease only until the lease ends: a claim that finds the budget full gets
 * the item back with the refusal and removes the ended leases in its next write, so a crash costs
 * no read and no sweeper.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { isConditionFailure } from './db/items';
import type { StorageKey } from './db/storage-key';

export const budgetKeys = {
  inFlight: (orgId: string): StorageKey => ({ PK: `HOOKBUDGET#${orgId}`, SK: 'INFLIGHT' }),
};

// Keyed here; written by the updates below.
defineEntity({ name: 'hook_budget', key: budgetKeys.inFlight });

/** Tries a few times when other workers change the item between our reads and writes. */
const ROUNDS = 4;

type Leases = Record<string, number>;

async function update(
  orgId: string,
  expr: { update: string; condition: string; names: Record<string, string>; values: Record<string, unknown> },
): Promise<'done' | Leases | undefined> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: budgetKeys.inFlight(orgId),
        UpdateExpression: expr.update,
        ConditionExpression: expr.condition,
        ExpressionAttributeNames: expr.names,
        ExpressionAttributeValues: expr.values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'done';
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    const old = e.Item ? unmarshall(e.Item as Record<string, AttributeValue>) : undefined;
    return (old?.leases as Leases | undefined) ?? undefined;
  }
}

/**
 * Takes one of the organisation's `max` attempts in flight until `untilMs` under `leaseId` (new
 * for every claim); false when all are held by leases that have not ended.
 */
export async function claimAttemptSlot(orgId: string, leaseId: string, nowMs: number, untilMs: number, max: number): Promise<boolean> {
  const names = { '#l': 'leases', '#id': leaseId };
  for (let round = 0; round < ROUNDS; round++) {
    const held = await update(orgId, { update: 'SET #l.#id = :until', condition: 'size(#l) < :max', names, values: { ':until': untilMs, ':max': max } });
    if (held === 'done') return true;
    if (held === undefined) {
      // The organisation's first attempt: the item is made with this lease.
      const made = await update(orgId, {
        update: 'SET #l = :leases, entity = :e',
        condition: 'attribute_not_exists(PK)',
        names: { '#l': 'leases' },
        values: { ':leases': { [leaseId]: untilMs }, ':e': 'hook_budget' },
      });
      if (made === 'done') return true;
      continue;
    }
    const ended = Object.entries(held).filter(([, until]) => until <= nowMs);
    if (ended.length === 0) return false;
    // Ended leases out, this one in, only if those are still the ended ones and the rest leave room.
    const room = max - 1 + ended.length;
    const endedNames = Object.fromEntries(ended.map(([id], i) => [`#e${i}`, id]));
    const endedValues = Object.fromEntries(ended.map(([, until], i) => [`:e${i}`, until]));
    const swapped = await update(orgId, {
      update: `REMOVE ${ended.map((_, i) => `#l.#e${i}`).join(', ')} SET #l.#id = :until`,
      condition: [...ended.map((_, i) => `#l.#e${i} = :e${i}`), 'size(#l) <= :room'].join(' AND '),
      names: { ...names, ...endedNames },
      values: { ':until': untilMs, ':room': room, ...endedValues },
    });
    if (swapped === 'done') return true;
  }
  return false;
}

/** Gives the attempt back (nothing when its lease has already been removed as ended). */
export async function releaseAttemptSlot(orgId: string, leaseId: string, untilMs: number): Promise<void> {
  await update(orgId, { update: 'REMOVE #l.#id', condition: '#l.#id = :until', names: { '#l': 'leases', '#id': leaseId }, values: { ':until': untilMs } });
}
