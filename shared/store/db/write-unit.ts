/**
 * A unit of an organisation's dashboard-write limit (docs/reference/limits.md) that rides on the
 * request's first write: the org-limit middleware hands it over, and the first transaction the
 * request sends carries it as one more item (a single write becomes a transaction of two). The
 * unit is then spent exactly when the write is, in the same round trip: a write refused by the
 * limit stores nothing, and one that fails for its own reason spends nothing there. A write sent
 * some other way spends the unit on its own first (settleWriteUnit); a request that wrote nothing
 * spends it after (shared/http/middleware/org-limit.ts).
 *
 * The unit belongs to the request's work (shared/request-context.ts), so requests served side by
 * side in one process never carry each other's.
 */
import { currentWork, type WorkContext } from '../../request-context';
import type { TxItem } from './tx-item';

export interface WriteUnit {
  /** The conditional ADD of the window's counter; its failed condition is the 429. */
  item: TxItem;
  /** Spends the unit by itself (one UpdateItem), or throws the 429. */
  spendAlone(): Promise<void>;
}

const units = new WeakMap<WorkContext, WriteUnit>();

/** Gives the request's next write the unit to carry; false outside a request's work (the caller spends it at once). */
export function carryWriteUnit(unit: WriteUnit): boolean {
  const work = currentWork();
  if (!work) return false;
  units.set(work, unit);
  return true;
}

/** The unit the request's next write carries, if it has not been spent. */
export function pendingWriteUnit(): WriteUnit | undefined {
  const work = currentWork();
  return work && units.get(work);
}

/** The unit was spent (with the write that carried it, or refused there). */
export function writeUnitSettled(): void {
  const work = currentWork();
  if (work) units.delete(work);
}

/** Spends the request's unit by itself if it is still pending: before a write that cannot carry it, or after a request that wrote nothing. */
export async function settleWriteUnit(): Promise<void> {
  const unit = pendingWriteUnit();
  if (!unit) return;
  writeUnitSettled();
  await unit.spendAlone();
}
