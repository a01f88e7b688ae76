/**
 * The runs of imports (contract §9, docs/operating/organisations.md "Move an organisation"). Every
 * import claims a run before it writes anything: one item per organisation that holds where the
 * writes stand (`position`, the objects before it all written) and whether the organisation's own
 * first write is done (`restored`). The import's writes themselves, ready (keys with their quota
 * scopes, webhook secrets already sealed), ride beside it gzipped in parts. The import's request
 * holds the run until `held_until` (past the function's timeout) and hands it over when its time
 * runs out; a request cut off before that leaves a run the worker takes over once the hold passes.
 * Every move of the run is a record of the table's stream, which hands it to the import worker
 * (functions/organisations/import-feed.ts); every move is conditional on `seq`, so two writers of
 * one run never both go on.
 */
import { Conflict } from '../errors';
import { LIMITS } from '../limits';
import type { ImportProgress } from '../schemas/organisation-file';
import { image, type FeedRecord } from './change-feed';
import { tableName } from './db/client';
import { defineEntity } from './db/entity';
import { batchGet, getItem } from './db/items';
import { decodeParts, encodeParts } from './db/stored-parts';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { writeItems, type TxItem } from './db/transactions';

const RUN_ENTITY = 'import_run';
const runKey = (orgId: string): StorageKey => ({ PK: `IMPORT#${orgId}`, SK: 'RUN' });
const partKey = (orgId: string, n: number): StorageKey => ({ PK: `IMPORT#${orgId}`, SK: `CHUNK#${String(n).padStart(4, '0')}` });
defineEntity({ name: RUN_ENTITY, key: runKey });
const parts = defineEntity<{ org_id: string; body: Buffer }, [string, number]>({ name: 'import_part', key: partKey });

/** The writes a run carries: up to this much JSON (a 5 MB file grows by its quota scopes and sealed secrets). */
const MAX_WRITES_JSON = 4 * LIMITS.storedJsonBytes;
/** A finished run's record (and its parts, deleted when it ends) is kept this long for GET .../import. */
const KEEP_SECONDS = 7 * 24 * 3600;

type ImportState = ImportProgress['state'];

export interface ImportRun {
  org_id: string;
  state: ImportState;
  /** Objects written in order: all before it are stored. */
  position: number;
  /** Objects the import writes in all. */
  total: number;
  started_at: string;
  /** Until when (ms) the import's request holds the run; null once handed over. */
  held_until: number | null;
  handed_over_at: string | null;
  /** Whether the organisation's own first write (startRestore) is done. */
  restored: boolean;
  finished_at: string | null;
  /** Why a failed run stopped. */
  reason: string | null;
  seq: number;
  /** How many parts its writes ride in (0 until its request has stored them all). */
  parts: number;
}

function runOf(item: Record<string, unknown>): ImportRun {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    org_id: String(item.org_id),
    state: item.state as ImportState,
    position: Number(item.position ?? 0),
    total: Number(item.total ?? 0),
    started_at: String(item.started_at),
    held_until: typeof item.held_until === 'number' ? item.held_until : null,
    handed_over_at: text(item.handed_over_at),
    restored: item.restored === true,
    finished_at: text(item.finished_at),
    reason: text(item.reason),
    seq: Number(item.seq ?? 0),
    parts: Number(item.parts ?? 0),
  };
}

/** The organisation's import run (consistent read), or undefined when it was never imported. */
export async function loadImportRun(orgId: string): Promise<ImportRun | undefined> {
  const item = await getItem(runKey(orgId), true);
  return item ? runOf(item) : undefined;
}

/**
 * Claims the organisation's import run for the import's request, held until `heldUntil` (ms): 409
 * while another import of the same id is under way; a run of an earlier import of it is replaced.
 */
export async function claimImportRun(orgId: string, run: { total: number; startedAt: string; heldUntil: number }): Promise<ImportRun> {
  const claimed: ImportRun = {
    org_id: orgId,
    state: 'importing',
    position: 0,
    total: run.total,
    started_at: run.startedAt,
    held_until: run.heldUntil,
    handed_over_at: null,
    restored: false,
    finished_at: null,
    reason: null,
    seq: 0,
    parts: 0,
  };
  await writeItems([
    {
      op: {
        Put: {
          TableName: tableName(),
          Item: { ...runKey(orgId), entity: RUN_ENTITY, ...claimed },
          ConditionExpression: 'attribute_not_exists(PK) OR #s <> :importing',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':importing': 'importing' },
        },
      },
      onConditionFail: () => new Conflict(`organisation ${orgId} is being imported: GET /admin/organisations/${orgId}/import`),
    },
  ]);
  return claimed;
}

/** Stores the writes of a claimed run in parts (their count goes into the run's next move); they expire with the run's record. */
export async function storeImportWrites(orgId: string, writes: unknown): Promise<number> {
  const packed = encodeParts(writes, 350_000, MAX_WRITES_JSON);
  const expires = Math.floor(Date.now() / 1000) + KEEP_SECONDS;
  // One write per part: a part is up to 350 KB, and a transaction holds at most 4 MB.
  for (const [n, body] of packed.entries()) await writeItems([parts.put({ org_id: orgId, body }, { at: [orgId, n], extra: { [TTL_ATTRIBUTE]: expires } })]);
  return packed.length;
}

/** The writes a run carries. */
export async function loadImportWrites(run: ImportRun): Promise<unknown> {
  const items = await batchGet(
    Array.from({ length: run.parts }, (_, n) => partKey(run.org_id, n)),
    true,
  );
  const bodies = items.sort((a, b) => String(a.SK).localeCompare(String(b.SK))).map((i) => Buffer.from(i.body as Uint8Array));
  if (bodies.length !== run.parts) throw new Error(`import of ${run.org_id}: ${run.parts - bodies.length} part(s) of its writes are missing`);
  return decodeParts(bodies, `The import of ${run.org_id}`, MAX_WRITES_JSON).value;
}

/** Another writer moved the run since it was read. */
export class ImportRunMoved extends Error {}

/** What a move changes besides the position: its parts stored, the first write done, the hand-over, the end. */
export interface RunChange {
  parts?: number;
  restored?: true;
  handOver?: true;
  end?: { state: 'done' | 'failed'; reason?: string };
}

/** The run as a move leaves it. */
export function movedRun(run: ImportRun, position: number, change: RunChange = {}, nowMs = Date.now()): ImportRun {
  const at = new Date(nowMs).toISOString();
  return {
    ...run,
    position,
    seq: run.seq + 1,
    ...(change.parts !== undefined ? { parts: change.parts } : {}),
    ...(change.restored ? { restored: true } : {}),
    ...(change.handOver ? { held_until: null, handed_over_at: at } : {}),
    ...(change.end ? { state: change.end.state, finished_at: at, reason: change.end.reason?.slice(0, 1000) ?? null } : {}),
  };
}

/** The move of the run read at `seq` to `position` with `change`; one item of a transaction. */
export function importRunMove(run: ImportRun, position: number, change: RunChange = {}, nowMs = Date.now()): TxItem {
  const next = movedRun(run, position, change, nowMs);
  const changed = (['position', 'seq', 'parts', 'restored', 'held_until', 'handed_over_at', 'state', 'finished_at', 'reason'] as const).filter(
    (k) => k === 'seq' || next[k] !== run[k],
  );
  const names: Record<string, string> = Object.fromEntries(changed.map((k) => [`#${k}`, k]));
  const values: Record<string, unknown> = { ':was': run.seq, ...Object.fromEntries(changed.map((k) => [`:${k}`, next[k]])) };
  const sets = changed.map((k) => `#${k} = :${k}`);
  if (change.end) {
    names['#ttl'] = TTL_ATTRIBUTE;
    values[':ttl'] = Math.floor(nowMs / 1000) + KEEP_SECONDS;
    sets.push('#ttl = :ttl');
  }
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: runKey(run.org_id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: '#seq = :was',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    onConditionFail: () => new ImportRunMoved(),
  };
}

/** Moves the run: a stream record that hands it to the next worker. Answers the run as moved. */
export async function moveImportRun(run: ImportRun, position: number, change: RunChange = {}): Promise<ImportRun> {
  const now = Date.now();
  await writeItems([importRunMove(run, position, change, now)]);
  return movedRun(run, position, change, now);
}

/** Deletes the parts of a run that ended (its record stays, for GET .../import); they expire by TTL otherwise. */
export async function removeImportWrites(run: ImportRun): Promise<void> {
  for (let n = 0; n < run.parts; n++) await writeItems([{ op: { Delete: { TableName: tableName(), Key: partKey(run.org_id, n) } } }]);
}

/** The organisations whose import runs the records show under way, each once. */
export function importRunsToWork(records: readonly FeedRecord[]): string[] {
  const orgs = new Set<string>();
  for (const r of records) {
    const run = image(r.dynamodb?.NewImage);
    if (run?.entity === RUN_ENTITY && run.state === 'importing') orgs.add(String(run.org_id));
  }
  return [...orgs];
}
