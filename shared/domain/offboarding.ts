/**
 * The pure part of offboarding an organisation (contract §9): which months and days its usage rows
 * may be under, how the items found are cut into transactions, and what each step deleted.
 */
import { OFFBOARDING_STEPS, type Offboarding, type OffboardingStep } from '../schemas/offboarding';

/** Every `YYYY-MM` from the month of `fromIso` to the month of `nowMs`, oldest first. */
export function monthsSince(fromIso: string, nowMs: number): string[] {
  const from = new Date(fromIso);
  const now = new Date(nowMs);
  const months: string[] = [];
  for (let y = from.getUTCFullYear(), m = from.getUTCMonth(); y < now.getUTCFullYear() || (y === now.getUTCFullYear() && m <= now.getUTCMonth()); ) {
    months.push(`${y}-${String(m + 1).padStart(2, '0')}`);
    m++;
    if (m === 12) {
      m = 0;
      y++;
    }
  }
  return months;
}

/** The `YYYY-MM-DD` of `nowMs` and of the `days - 1` days before it, newest first. */
export function daysBefore(nowMs: number, days: number): string[] {
  return Array.from({ length: days }, (_, i) => new Date(nowMs - i * 86_400_000).toISOString().slice(0, 10));
}

/** A stored item as the sweep sees it: its key and what it is. */
export interface Found {
  PK: string;
  SK: string;
  entity: string;
}

/**
 * The items of several objects, each object's in the order they must go (its own listed item
 * last), cut to at most `max` for one transaction: whole objects while they fit, else the first
 * object's first `max` items. A run stopped between two transactions then still finds the rest of
 * an object through the item that lists it.
 */
export function firstChunk(objects: readonly (readonly Found[])[], max: number): Found[] {
  const chunk: Found[] = [];
  for (const items of objects) {
    if (chunk.length + items.length > max) return chunk.length ? chunk : items.slice(0, max);
    chunk.push(...items);
  }
  return chunk;
}

/** How many items of each entity `items` holds. */
export function countByEntity(items: readonly { entity: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of items) counts[i.entity] = (counts[i.entity] ?? 0) + 1;
  return counts;
}

/** The stored run as the progress route shows it. */
export interface OffboardingRecord {
  org_id: string;
  state: Offboarding['state'];
  step: number;
  started_at: string;
  deleting_from_ms: number;
  finished_at?: string;
  deleted: Record<string, number>;
}

export function progressOf(r: OffboardingRecord): Offboarding {
  const deleted = Object.fromEntries(
    Object.entries(r.deleted)
      .filter(([, n]) => n > 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return {
    org_id: r.org_id,
    state: r.state,
    step: r.state === 'deleting' ? (OFFBOARDING_STEPS[r.step] ?? null) : null,
    steps_done: r.state === 'done' ? OFFBOARDING_STEPS.length : r.state === 'fencing' ? 0 : r.step,
    started_at: r.started_at,
    deleting_from: new Date(r.deleting_from_ms).toISOString(),
    finished_at: r.finished_at ?? null,
    deleted,
    deleted_total: Object.values(deleted).reduce((a, b) => a + b, 0),
  };
}

/** The step at `index`, or undefined past the last. */
export const stepAt = (index: number): OffboardingStep | undefined => OFFBOARDING_STEPS[index];
