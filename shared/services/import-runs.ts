/**
 * The background part of an import (contract §9): the import worker
 * (functions/organisations/import-feed.ts, handed each move of a run by the table's stream) writes
 * what the import's request had no time to write, a stretch at a time, moving the run after each,
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
  moveImportRun,
  removeImportWrites,
  type ImportRun,
} from '../store/import-runs';
import { loadRun } from '../store/offboarding';
import { endRestore, restoreObjects, writeObjects, type Restore } from '../store/organisation-transfer';
import { startOffboarding } from './offboarding';
import type { FeedRecord } from '../store/change-feed';

export type { FeedRecord };

/** GET /admin/organisations/{orgID}/import: the background run of its import; 404 when none was handed over. */
export async function importProgress(orgId: string): Promise<ImportProgress> {
  const run = await loadImportRun(orgId);
  if (!run) throw new NotFound(`organisation ${orgId} has no import running in the background`);
  const { seq: _seq, parts: _parts, position, ...shown } = run;
  return { ...shown, written: position };
}

/** Works on the organisation's run for about `budgetMs`; its moves hand it to the next worker until it ends. */
async function runImport(orgId: string, budgetMs: number): Promise<void> {
  const deadline = Date.now() + budgetMs;
  let run = await loadImportRun(orgId);
  if (run?.state !== 'importing') return;
  const restore = (await loadImportWrites(run)) as Restore;
  const objects = restoreObjects(restore);
  try {
    const written = await writeObjects(objects, run.position, deadline, async (position) => {
      if ((await loadRun(orgId)) !== undefined) throw new Conflict('the organisation is being offboarded');
      await moveImportRun(importRunMove(run!, position));
      run = { ...run!, position, seq: run!.seq + 1 };
    });
    if (written < objects.length) return;
    await endRestore(restore, [importRunMove(run, written, { state: 'done' })]);
    logger.info('import: organisation imported', { org_id: orgId, objects: objects.length });
  } catch (e) {
    if (e instanceof ImportRunMoved) return;
    // Anything else (throttling, a lost connection) fails the batch, and the stream hands the run over again.
    if (!(e instanceof AppError)) throw e;
    await fail(run, e.message);
  }
  await removeImportWrites(run);
}

async function fail(run: ImportRun, reason: string): Promise<void> {
  logger.warn('import: run failed; the organisation is offboarded', { org_id: run.org_id, reason });
  await moveImportRun(importRunMove(run, run.position, { state: 'failed', reason }));
  await startOffboarding(run.org_id);
}

/** The worker's batch: each run the records show under way, worked on for about `workMs` in turn. */
export async function workOnImports(records: readonly FeedRecord[], workMs: number): Promise<void> {
  const orgs = importRunsToWork(records);
  for (const orgId of orgs) await runImport(orgId, workMs / orgs.length);
}
