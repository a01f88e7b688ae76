/**
 * Optimistic locking (contract §3), written once for every versioned object. Every stored object
 * has a `version`; a write names the version it read and is conditioned on it, so a concurrent
 * writer is never silently undone between our read and our write.
 *
 * - With If-Match the write succeeds only on a version the header allows: 412 otherwise, and 412
 *   when another writer moved the object on between our read and our write.
 * - Without If-Match the last write wins: a write that lost such a race reads the object again and
 *   is rebuilt on the newer version, at most MAX_ATTEMPTS times, then answers a 409 that says to
 *   try again (only a writer starved by a storm of writes to one object sees it).
 * - An object that is gone (before the write, or deleted during it) is 404, with or without If-Match.
 * - A version guard on another object of the same change (an API's base, when a version is linked)
 *   is the caller's read, not the client's precondition: its lost race is read again either way.
 */
import { ifMatchAllows, type IfMatch } from '../../domain/if-match';
import { Conflict, PreconditionFailed, type AppError } from '../../errors';
import { sleep } from './backoff';
import { writeItems, type StoredAttrs, type TransactItem, type TxItem } from './transactions';

/** Reads and writes of one versioned change before a writer without If-Match gives up (409). */
export const MAX_ATTEMPTS = 8;

/** A version guard failed: the object moved on (or is gone) since it was read. Never leaves this module's loop. */
class VersionMoved extends Error {
  constructor(
    readonly gone: boolean,
    /** The object the client named (If-Match applies to it), or another one the change read. */
    readonly subject: boolean,
  ) {
    super('the object changed between its read and its write');
  }
}

/**
 * Runs `attempt` again while a version guard of its write fails, as the rules above say; any other
 * error (and the last lost race) goes to the caller. `what` names the object in the 409.
 */
export async function retryWhileMoved<R>(what: string, ifMatch: IfMatch | undefined, attempt: () => Promise<R>): Promise<R> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof VersionMoved)) throw e;
      // With If-Match a change of the named object is the client's 412; a deleted one is read
      // again below, and answers 404 like any object that is not there.
      if (ifMatch !== undefined && e.subject && !e.gone) throw new PreconditionFailed();
      if (n >= MAX_ATTEMPTS) throw new Conflict(`${what} kept changing while it was being written; try again`);
      // Writers that lost together spread out, so they do not collide again at once.
      await sleep(Math.random() * 4 * n);
    }
  }
}

/**
 * The versioned write of one object: read it (404 when absent), check If-Match against its
 * version (412), then `write` the change built from what was read; its own item must be guarded
 * with `guardVersion` (and any other object it read with `guardVersion(..., { subject: false })`).
 */
export function writeVersioned<C extends { version: number }, R>(w: {
  what: string;
  ifMatch: IfMatch | undefined;
  read: () => Promise<C | undefined>;
  notFound: () => AppError;
  write: (current: C) => Promise<R>;
}): Promise<R> {
  return retryWhileMoved(w.what, w.ifMatch, async () => {
    const current = await w.read();
    if (!current) throw w.notFound();
    if (!ifMatchAllows(w.ifMatch, current.version)) throw new PreconditionFailed();
    return w.write(current);
  });
}

/**
 * `item` (a Put, Delete or Update of a versioned object) made conditional on the object still
 * existing at `version`; its failure is a lost race for retryWhileMoved. Conditions the item had
 * are kept.
 */
export function guardVersion(item: TxItem, version: number, opts: { subject?: boolean } = {}): TxItem {
  const subject = opts.subject ?? true;
  const guard = 'attribute_exists(PK) AND version = :lockedVersion';
  const withGuard = <O extends { ConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown> }>(op: O): O => ({
    ...op,
    ConditionExpression: op.ConditionExpression ? `(${op.ConditionExpression}) AND ${guard}` : guard,
    ExpressionAttributeValues: { ...op.ExpressionAttributeValues, ':lockedVersion': version },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
  const op: TransactItem = item.op.Put
    ? { Put: withGuard(item.op.Put) }
    : item.op.Delete
      ? { Delete: withGuard(item.op.Delete) }
      : item.op.Update
        ? { Update: withGuard(item.op.Update) }
        : item.op;
  return { ...item, op, onConditionFail: (old?: StoredAttrs) => new VersionMoved(!old, subject) };
}

/**
 * `item` (a Put of an object that was read as absent) made conditional on it still being absent;
 * its failure is a lost race for retryWhileMoved, which reads again and rebuilds the change.
 */
export function guardAbsent(item: TxItem): TxItem {
  const put = item.op.Put!;
  return {
    ...item,
    op: { Put: { ...put, ConditionExpression: 'attribute_not_exists(PK)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
    onConditionFail: () => new VersionMoved(false, true),
  };
}

/**
 * The condition a single write puts on the stored `version` for If-Match: none for no header or
 * `*` (the write's own `attribute_exists` covers it), else `version IN (...)`. A list that allows
 * nothing (weak tags only) names -1, a version no object has, so the write fails as a mismatch.
 */
function versionCondition(ifMatch: IfMatch | undefined): { expression: string; values: Record<string, number> } | undefined {
  if (ifMatch === undefined || ifMatch === '*') return undefined;
  const versions = ifMatch.length > 0 ? ifMatch : [-1];
  const values = Object.fromEntries(versions.map((v, i) => [`:v${i}`, v]));
  return { expression: `version IN (${Object.keys(values).join(', ')})`, values };
}

/**
 * Deletes an item (`remove`: its entity's delete, with what goes alongside it) in one conditional
 * write, honouring If-Match (no read first: a delete builds nothing from the object); 404 when
 * absent, 412 on a version If-Match does not allow. `where` adds a condition the item must meet,
 * and says whether a refused item is this caller's at all (404 when not, as for another API's
 * OAuth client).
 */
export async function deleteIfMatch(
  remove: TxItem,
  ifMatch: IfMatch | undefined,
  notFound: () => AppError,
  where?: { expression: string; values: Record<string, unknown>; holds: (old: StoredAttrs) => boolean },
): Promise<void> {
  const version = versionCondition(ifMatch);
  const conditions = ['attribute_exists(PK)', where?.expression, version?.expression].filter(Boolean);
  const del = remove.op.Delete!;
  await writeItems([
    {
      ...remove,
      op: {
        Delete: {
          ...del,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeValues: where || version ? { ...where?.values, ...version?.values } : undefined,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFail: (old) => (!old || (where && !where.holds(old)) ? notFound() : new PreconditionFailed()),
    },
  ]);
}
