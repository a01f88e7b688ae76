/**
 * The background part of an import (contract §9): the import worker
 * (functions/organisations/import-feed.ts, handed each move of a run by the table's stream) writes
 * what the import's request had no time to write (or, when the request was cut off before it
 * handed the run over, what it left once its hold passes), a stretch at a time, moving the run after each,
 * then the organisation's counts with the run's end in one transaction. A worker stopped anywhere
 * (a crash, its time up) leaves the run where its last move put it; the next goes on from there and
 * finds what the stopped one wrote of its last stretch. A write another organisation's item refuses,
 * or an offboarding of the organisation, ends the run as failed, and the organisation is offboarded.
 */
import { AppError, Conflict, NotFound } from '../errors';
import { logger } from '../observability/logger';
import type { ImportProgress } from '../schemas/organisation-file';
import {
  ImportRunMoved,
  importRunMove,
  importRunsToWork,
  loadImportRun,
  loadImportWrites,
  movedRun,
  moveImportRun,
  removeImportWrites,
  type ImportRun,
  type RunChange,
} from '../store/import-runs';
import { loadRun } from '../store/offboarding';
import { endRestore, restoreObjects, startRestore, writeObjects, type Restore } from '../store/organisation-transfer';
import { startOffboarding } from './offboarding';
import type { FeedRecord } from '../store/change-feed';

export type { FeedRecord };

/** GET /admin/organisations/{orgID}/import: the run of its last import; 404 when it was never imported. */
export async function importProgress(orgId: string): Promise<ImportProgress> {
  const run = await loadImportRun(orgId);
  if (!run) throw new NotFound(`organisation ${orgId} was never imported here`);
  const { seq: _seq, parts: _parts, held_until: _held, restored: _restored, position, ...shown } = run;
  return { ...shown, written: position };
}

/** How often a worker looks at a run its request still holds. */
const HELD_POLL_MS = 500;

/** The run once its request no longer holds it: handed over, ended, or its hold passed (the request was cut off). */
async function released(orgId: string): Promise<ImportRun | undefined> {
  for (;;) {
    const run = await loadImportRun(orgId);
    const held = run?.state === 'importing' ? (run.held_until ?? 0) - Date.now() : 0;
    if (held <= 0) return run;
    await new Promise((r) => setTimeout(r, Math.min(HELD_POLL_MS, held)));
  }
}

/**
 * Works on the organisation's run for about `budgetMs` once its request lets go of it; its moves
 * hand it to the next worker until it ends. A run whose request was cut off is taken over here:
 * its organisation's first write is made when the request never made it.
 */
async function runImport(orgId: string, budgetMs: number): Promise<void> {
  let run = await released(orgId);
  if (run?.state !== 'importing') return;
  const deadline = Date.now() + budgetMs;
  try {
    // Taken over from a request cut off before its hand-over; the hand-over rides in the run's next move.
    const takeOver: RunChange = run.handed_over_at === null ? { handOver: true } : {};
    if (takeOver.handOver) {
      if (run.parts === 0) return await failImport(run, 'its request stopped before it handed its writes over; nothing was written');
      logger.warn('import: its request stopped without handing the run over; taken over', { org_id: orgId, position: run.position });
    }
    const restore = (await loadImportWrites(run)) as Restore;
    if (!run.restored) run = await startImport(run, restore, takeOver);
    else if (takeOver.handOver) run = await moveImportRun(run, run.position, takeOver);
    const objects = restoreObjects(restore);
    const written = await writeObjects(objects, run.position, deadline, async (position) => {
      if ((await loadRun(orgId)) !== undefined) throw new Conflict('the organisation is being offboarded');
      run = await moveImportRun(run!, position);
    });
    if (written < objects.length) return;
    await endImport(run, restore, written);
    logger.info('import: organisation imported', { org_id: orgId, objects: objects.length });
  } catch (e) {
    if (e instanceof ImportRunMoved) return;
    // Anything else (throttling, a lost connection) fails the batch, and the stream hands the run over again.
    if (!(e instanceof AppError)) throw e;
    await failImport(run, e.message);
  }
}

/** The organisation's first write, in one transaction with the run's move (`change` besides): a run another writer moved refuses it whole. */
export async function startImport(run: ImportRun, restore: Restore, change: RunChange = {}): Promise<ImportRun> {
  const now = Date.now();
  const restored: RunChange = { ...change, restored: true };
  await startRestore(restore, [importRunMove(run, run.position, restored, now)]);
  return movedRun(run, run.position, restored, now);
}

/** The import's end: the organisation's counts with the run's `done` in one transaction, then the writes it carried removed. */
export async function endImport(run: ImportRun, restore: Restore, written: number): Promise<void> {
  await endRestore(restore, [importRunMove(run, written, { end: { state: 'done' } })]);
  await removeImportWrites(run);
}

/**
 * Ends the run as failed, with its reason, and offboards what it wrote when it wrote anything (the
 * organisation is then this import's own). Another writer that moved the run meanwhile goes on instead.
 */
export async function failImport(run: ImportRun, reason: string): Promise<void> {
  logger.warn('import: run failed', { org_id: run.org_id, reason, offboarded: run.restored });
  try {
    await moveImportRun(run, run.position, { end: { state: 'failed', reason } });
  } catch (e) {
    if (e instanceof ImportRunMoved) return;
    throw e;
  }
  if (run.restored) await startOffboarding(run.org_id);
  await removeImportWrites(run);
}

/** The worker's batch: each run the records show under way, worked on for about `workMs` in turn. */
export async function workOnImports(records: readonly FeedRecord[], workMs: number): Promise<void> {
  const orgs = importRunsToWork(records);
  for (const orgId of orgs) await runImport(orgId, workMs / orgs.length);
}
