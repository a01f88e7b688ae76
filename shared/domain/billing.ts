/**
 * Usage for billing (contract §14): what the check decided, per organisation, API and day, and
 * per organisation and month. Pure: the tallies the check's own writes carry, the change one
 * stream record makes to them, and the figures and CSV the admin routes answer.
 *
 * How the figures stay exact without a second write on an allowed check: the spend's conditional
 * UpdateItem (the key's counter, or the organisation's when it has a quota) also ADDs 1 to the
 * counter's `tally_allowed` and SETs whose request it was (`tally_of`: organisation, API and
 * day). Each such write is one stream record whose old and new images differ by exactly
 * that unit, so the change feed's usage consumer can fold it into the day's and the month's
 * figures. A refusal is one ADD on a refusal tally item, read from the stream the same way.
 */
import { BILLED_REFUSALS } from '../schemas/value-lists';

export type BilledRefusal = (typeof BILLED_REFUSALS)[number];

/**
 * The attributes a counter item carries for the figures (written by the spend, read from the
 * stream): the units it counted, and whose request the last was, as one value (tallyOwner), so the
 * spend sets one attribute more, not three.
 */
export const TALLY = { allowed: 'tally_allowed', of: 'tally_of' } as const;

/** A tally's owner as the counter stores it: organisation, API and day, one per line (ids hold no line break). */
export const tallyOwner = (o: TallyOwner): string => `${o.org_id}\n${o.api_id}\n${o.day}`;

/** The attribute of a refusal tally item (and of a figures item) counting one reason. */
export const refusedAttr = (reason: BilledRefusal): string => `refused_${reason}`;

/** Requests allowed and refused (by reason), as every figure of the routes reads. */
export interface Figures {
  allowed: number;
  refused: Partial<Record<BilledRefusal, number>>;
}

/** Whose request a tally is of, and on which day (UTC). */
export interface TallyOwner {
  org_id: string;
  api_id: string;
  day: string;
}

/** One stream record's change to the figures of one (organisation, API, day). */
export interface TallyChange extends TallyOwner, Figures {}

/** The UTC day of an epoch second, as `YYYY-MM-DD`. */
export const dayOf = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString().slice(0, 10);

/** The month (`YYYY-MM`) a day (`YYYY-MM-DD`) is in. */
export const monthOf = (day: string): string => day.slice(0, 7);

/** Partitions the month's per-organisation figures are spread over, so no one partition takes every consumer's writes. */
export const MONTH_BUCKETS = 8;

/** Which of the month's partitions holds an organisation's figures: a stable hash of its id. */
export function monthBucket(orgId: string): number {
  let h = 0;
  for (let i = 0; i < orgId.length; i++) h = (h * 31 + orgId.charCodeAt(i)) >>> 0;
  return h % MONTH_BUCKETS;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * What one write of a counter (entity `live_quota`, `live_quota_shard`) or a refusal tally (entity
 * `usage_refusals`) changed in the figures: its new image against its old one. A counter whose new
 * image carries no tally (made or replaced by a write of its own, a reset) changes nothing; a
 * tally only ever grows, so a smaller one is an item made anew and counts from nothing.
 */
export function tallyChangeOf(entity: string, next: Record<string, unknown> | undefined, prev: Record<string, unknown> | undefined): TallyChange | undefined {
  if (!next) return undefined;
  if (entity === 'usage_refusals') {
    const owner = ownerOf(next.org_id, next.api_id, next.day);
    if (!owner) return undefined;
    const refused: Figures['refused'] = {};
    for (const reason of BILLED_REFUSALS) {
      const d = num(next[refusedAttr(reason)]) - num(prev?.[refusedAttr(reason)]);
      if (d > 0) refused[reason] = d;
    }
    return Object.keys(refused).length ? { ...owner, allowed: 0, refused } : undefined;
  }
  if (next[TALLY.allowed] === undefined) return undefined;
  const parts = typeof next[TALLY.of] === 'string' ? (next[TALLY.of] as string).split('\n') : [];
  const owner = parts.length === 3 ? ownerOf(parts[0], parts[1], parts[2]) : undefined;
  if (!owner) return undefined;
  const was = num(prev?.[TALLY.allowed]);
  const now = num(next[TALLY.allowed]);
  const allowed = now >= was ? now - was : now;
  return allowed > 0 ? { ...owner, allowed, refused: {} } : undefined;
}

function ownerOf(org: unknown, api: unknown, day: unknown): TallyOwner | undefined {
  const o = str(org);
  const a = str(api);
  const d = str(day);
  return o && a && d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? { org_id: o, api_id: a, day: d } : undefined;
}

/** Adds `more` into `into` (both figures), and answers `into`. */
export function addFigures(into: Figures, more: Figures): Figures {
  into.allowed += more.allowed;
  for (const [reason, n] of Object.entries(more.refused) as [BilledRefusal, number][]) into.refused[reason] = (into.refused[reason] ?? 0) + n;
  return into;
}

export const noFigures = (): Figures => ({ allowed: 0, refused: {} });

/** Every refusal of a figure, all reasons together. */
const refusedTotal = (f: Figures): number => Object.values(f.refused).reduce((a, b) => a + (b ?? 0), 0);

/** The figures of a stored item (a day's or a month's): its `allowed` and `refused_<reason>` attributes. */
export function figuresOfItem(item: Record<string, unknown>): Figures {
  const refused: Figures['refused'] = {};
  for (const reason of BILLED_REFUSALS) {
    const n = num(item[refusedAttr(reason)]);
    if (n > 0) refused[reason] = n;
  }
  return { allowed: num(item.allowed), refused };
}

/** A month's figures row as the routes answer it. */
export const figuresRow = (f: Figures) => ({ allowed: f.allowed, refused: refusedTotal(f), refused_by_reason: { ...f.refused } });

/** A CSV field as RFC 4180 writes it, with a leading formula character made inert for spreadsheets. */
function csvField(v: string | number): string {
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as CSV (RFC 4180, CRLF line ends): a header of `columns`, then one line per row. */
export function toCsv(columns: readonly string[], rows: readonly Record<string, string | number>[]): string {
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => csvField(r[c] ?? '')).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** The CSV columns of figures: allowed, refused in all, then each reason. */
export const FIGURE_COLUMNS = ['allowed', 'refused', ...BILLED_REFUSALS.map(refusedAttr)] as const;

/** One figures' CSV cells. */
export function figureCells(f: Figures): Record<string, number> {
  return {
    allowed: f.allowed,
    refused: refusedTotal(f),
    ...Object.fromEntries(BILLED_REFUSALS.map((r) => [refusedAttr(r), f.refused[r] ?? 0])),
  };
}

/** A change as the stream carried it: from which item (its key, `PK|SK`), at which position of that item's changes. */
export interface SourcedChange {
  source: string;
  /** The record's sequence number, zero-padded (seqKey) so that later compares greater as text. */
  seq: string;
  change: TallyChange;
}

/** A stream sequence number (decimal digits, up to 40) as text that sorts as the number does. */
export const seqKey = (sequenceNumber: string): string => sequenceNumber.padStart(40, '0');

/** The (organisation, month, day, API) a change adds to, and the (month, organisation) it adds to too. */
const dayTarget = (c: TallyChange): string => `${c.org_id}\n${c.day}\n${c.api_id}`;
const monthTarget = (c: TallyChange): string => `${c.org_id}\n${monthOf(c.day)}`;

/**
 * The changes in runs, in order, each small enough for one transaction: its sources' positions
 * plus the day and month figures it adds to take at most `maxItems` items.
 */
export function chunksOf(changes: readonly SourcedChange[], maxItems: number): SourcedChange[][] {
  const chunks: SourcedChange[][] = [];
  let chunk: SourcedChange[] = [];
  let seen = new Set<string>();
  for (const c of changes) {
    const keys = [`s${c.source}`, `d${dayTarget(c.change)}`, `m${monthTarget(c.change)}`];
    const added = keys.filter((k) => !seen.has(k)).length;
    if (chunk.length && seen.size + added > maxItems) {
      chunks.push(chunk);
      chunk = [];
      seen = new Set();
    }
    chunk.push(c);
    for (const k of keys) seen.add(k);
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** What a run of changes adds, once the changes a source's position has passed are left out. */
export interface FoldedRun {
  /** Per source: the position it reaches (the last of its changes in the run). */
  positions: Map<string, string>;
  days: Map<string, TallyChange>;
  months: Map<string, TallyChange>;
}

/** Folds `changes` into their figures, leaving out each change at or before its source's `marks` position. */
export function foldRun(changes: readonly SourcedChange[], marks: ReadonlyMap<string, string>): FoldedRun {
  const run: FoldedRun = { positions: new Map(), days: new Map(), months: new Map() };
  for (const { source, seq, change } of changes) {
    const mark = marks.get(source);
    if (mark !== undefined && seq <= mark) continue;
    run.positions.set(source, seq);
    for (const [map, target] of [
      [run.days, dayTarget(change)],
      [run.months, monthTarget(change)],
    ] as const) {
      let into = map.get(target);
      if (!into) map.set(target, (into = { org_id: change.org_id, api_id: change.api_id, day: change.day, ...noFigures() }));
      addFigures(into, change);
    }
  }
  return run;
}
