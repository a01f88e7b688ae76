/**
 * The background part of an import (contract §9, docs/operating/organisations.md "Move an
 * organisation"): when an import's request runs out of time, what it still has to write is handed
 * over as a run. One run item per organisation holds where the writes stand (`position`, the
 * objects before it all written); the import's writes themselves, ready (keys with their quota
 * scopes, webhook secrets already sealed), ride beside it gzipped in parts. Every move of the run is
 * a record of the table's stream, which hands it to the import worker
 * (functions/organisations/import-feed.ts); every move is conditional on `seq`, so two workers of
 * one run never both go on.
 */
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
  handed_over_at: string;
  finished_at: string | null;
  /** Why a failed run stopped. */
  reason: string | null;
  seq: number;
  /** How many parts its writes ride in. */
  parts: number;
}

function runOf(item: Record<string, unknown>): ImportRun {
  return {
    org_id: String(item.org_id),
    state: item.state as ImportState,
    position: Number(item.position ?? 0),
    total: Number(item.total ?? 0),
    started_at: String(item.started_at),
    handed_over_at: String(item.handed_over_at),
    finished_at: typeof item.finished_at === 'string' ? item.finished_at : null,
    reason: typeof item.reason === 'string' ? item.reason : null,
    seq: Number(item.seq ?? 0),
    parts: Number(item.parts ?? 0),
  };
}

/** The organisation's import run (consistent read), or undefined when no import was handed over. */
export async function loadImportRun(orgId: string): Promise<ImportRun | undefined> {
  const item = await getItem(runKey(orgId), true);
  return item ? runOf(item) : undefined;
}

/**
 * Hands the rest of an import over: its writes stored in parts, then the run, whose record starts
 * the worker. A finished run of an earlier import of the same id is replaced.
 */
export async function insertImportRun(orgId: string, writes: unknown, run: { position: number; total: number; startedAt: string }): Promise<void> {
  const packed = encodeParts(writes, 350_000, MAX_WRITES_JSON);
  const now = new Date().toISOString();
  // One write per part: a part is up to 350 KB, and a transaction holds at most 4 MB.
  const expires = Math.floor(Date.now() / 1000) + KEEP_SECONDS;
  for (const [n, body] of packed.entries()) await writeItems([parts.put({ org_id: orgId, body }, { at: [orgId, n], extra: { [TTL_ATTRIBUTE]: expires } })]);
  const item: Record<string, unknown> = {
    ...runKey(orgId),
    entity: RUN_ENTITY,
    org_id: orgId,
    state: 'importing',
    position: run.position,
    total: run.total,
    started_at: run.startedAt,
    handed_over_at: now,
    seq: 0,
    parts: packed.length,
  };
  await writeItems([
    {
      op: {
        Put: {
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_not_exists(PK) OR #s <> :importing',
          ExpressionAttributeNames: { '#s': 'state' },
          ExpressionAttributeValues: { ':importing': 'importing' },
        },
      },
    },
  ]);
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

/** Another worker moved the run since it was read. */
export class ImportRunMoved extends Error {}

/** The move of the run read at `seq` to `position`, ending it when `end` says so; one item of a transaction. */
export function importRunMove(run: ImportRun, position: number, end?: { state: 'done' | 'failed'; reason?: string }, nowMs = Date.now()): TxItem {
  const names: Record<string, string> = { '#seq': 'seq', '#position': 'position' };
  const values: Record<string, unknown> = { ':seq': run.seq, ':next': run.seq + 1, ':position': position };
  const sets = ['#seq = :next', '#position = :position'];
  if (end) {
    Object.assign(names, { '#state': 'state', '#ttl': TTL_ATTRIBUTE });
    Object.assign(values, { ':state': end.state, ':fin': new Date(nowMs).toISOString(), ':ttl': Math.floor(nowMs / 1000) + KEEP_SECONDS });
    sets.push('#state = :state', 'finished_at = :fin', '#ttl = :ttl');
    if (end.reason) {
      values[':reason'] = end.reason.slice(0, 1000);
      sets.push('reason = :reason');
    }
  }
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: runKey(run.org_id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: '#seq = :seq',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    onConditionFail: () => new ImportRunMoved(),
  };
}

/** Moves the run: a stream record that hands it to the next worker. */
export async function moveImportRun(move: TxItem): Promise<void> {
  await writeItems([move]);
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
