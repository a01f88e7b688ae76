/**
 * Per-organisation limit counters (docs/reference/limits.md): one item per organisation, class and fixed
 * window, spent only by one conditional ADD, never read-modify-write. Every window has its own
 * item, so a new window needs no reset (its first unit creates it) and under any concurrency at
 * most `max` units are spent in it. Each item expires by TTL when its window ends; none is ever
 * read after that.
 */
import { ORG_LIMITS, type OrgLimitClass } from '../limits';
import { defineEntity } from './db/entity';
import { conditionalUpdate } from './db/items';
import type { StorageKey } from './db/storage-key';
import type { TxItem } from './db/transactions';
import { carryWriteUnit } from './db/write-unit';
import { windowUnitUpdate } from './db/window-unit';

const orgLimitKeys = {
  /** The counter of one window (its start, epoch seconds). */
  window: (orgId: string, cls: OrgLimitClass, start: number): StorageKey => ({ PK: `ORGLIMIT#${orgId}#${cls}`, SK: `W#${start}` }),
};

const windows = defineEntity({ name: 'org_limit', key: orgLimitKeys.window });

/** The partitions of an organisation's windows, one per class: what its offboarding empties. */
export const orgLimitPartitions = (orgId: string): string[] => (Object.keys(ORG_LIMITS) as OrgLimitClass[]).map((cls) => orgLimitKeys.window(orgId, cls, 0).PK);

/** The conditional ADD of one unit of the window's counter, when fewer than `max` were spent in it. */
function unitUpdate(orgId: string, cls: OrgLimitClass, window: { start: number; end: number }, max: number) {
  return windowUnitUpdate(windows.key(orgId, cls, window.start), windows.name, window.end, max);
}

/** Spends one unit of the window's counter when fewer than `max` were spent in it; false when none is left. */
export async function spendWindowUnit(orgId: string, cls: OrgLimitClass, window: { start: number; end: number }, max: number): Promise<boolean> {
  return (await conditionalUpdate(unitUpdate(orgId, cls, window, max))).ok;
}

/**
 * Hands the same unit to the request's next write, to carry as one item of its transaction
 * (db/write-unit.ts): `refused` is the error when none is left, `spendAlone` spends it by itself.
 * False outside a request's work.
 */
export function carryWindowUnit(
  unit: { orgId: string; cls: OrgLimitClass; window: { start: number; end: number }; max: number },
  refused: () => Error,
  spendAlone: () => Promise<void>,
): boolean {
  const item: TxItem = { op: { Update: unitUpdate(unit.orgId, unit.cls, unit.window, unit.max) }, onConditionFail: refused };
  return carryWriteUnit({ item, spendAlone });
}
