/**
 * Offboarding an organisation (contract §9): DELETE /admin/organisations/{orgID} marks it (every
 * write for it refused at once, its keys and users within the caches' bound) and stores the run;
 * the run's worker (functions/organisations/offboarding-feed.ts, handed each move of the run by the
 * table's stream) waits until every process's caches know, then deletes everything the
 * organisation owns, step by step, one transaction at a time, each moving the run with what it
 * deleted. A worker stopped anywhere (a crash, its time up) leaves the run where its last
 * transaction put it, and the next one goes on from there.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../config';
import { progressOf, stepAt } from '../domain/offboarding';
import { NotFound } from '../errors';
import { logger } from '../observability/logger';
import type { Offboarding } from '../schemas/offboarding';
import { insertRun, loadRun, moveRun, nudgeRun, RunMoved, runsToWork, type FeedRecord, type RunMove } from '../store/offboarding';

export type { FeedRecord };
import { applyDeletion, SWEEPS } from '../store/offboarding-sweep';
import { loadOrganisation } from '../store/organisations';
import { forgetOrgStanding } from './org-limits';

/** Beyond twice the caches' time: the deletions start once no process can still hold the organisation as active. */
const FENCE_MARGIN_MS = 1000;
/** How long a worker waits for an index that still lists what is gone, before it reads again. */
const INDEX_LAG_MS = 200;
/** Races lost in a row (another worker, a concurrent delete) before a worker gives up and lets the feed hand the run over again. */
const MAX_LOST = 50;

/**
 * DELETE /admin/organisations/{orgID}: starts the organisation's offboarding, or answers the one
 * under way (and wakes its worker, in case the last one gave up). 404 when no such organisation.
 */
export async function startOffboarding(orgId: string): Promise<{ started: boolean; progress: Offboarding }> {
  const org = await loadOrganisation(orgId);
  if (!org) throw new NotFound(`organisation ${orgId} not found`);
  const now = Date.now();
  const started = await insertRun(orgId, org.created_at ?? new Date(now).toISOString(), now, now + 2 * config().cacheMs + FENCE_MARGIN_MS);
  forgetOrgStanding(orgId);
  if (!started) await nudgeRun(orgId);
  return { started, progress: await offboardingProgress(orgId) };
}

/** GET /admin/organisations/{orgID}/offboarding: the run, what it deleted so far by kind; 404 when none was started. */
export async function offboardingProgress(orgId: string): Promise<Offboarding> {
  const run = await loadRun(orgId);
  if (!run) throw new NotFound(`organisation ${orgId} has no offboarding`);
  return progressOf(run);
}

async function tryMove(orgId: string, seq: number, move: RunMove): Promise<void> {
  try {
    await moveRun(orgId, seq, move);
  } catch (e) {
    if (!(e instanceof RunMoved)) throw e;
  }
}

/**
 * Works on the organisation's run for about `budgetMs`, then moves it (a stream record that hands
 * it to the next worker) unless it is done.
 */
async function runOffboarding(orgId: string, budgetMs: number): Promise<void> {
  const deadline = Date.now() + budgetMs;
  let lost = 0;
  for (;;) {
    const run = await loadRun(orgId);
    if (!run || run.state === 'done') return;
    const now = Date.now();
    if (now >= deadline) return tryMove(orgId, run.seq, {});
    if (run.state === 'fencing') {
      if (now < run.deleting_from_ms) await sleep(Math.min(run.deleting_from_ms, deadline) - now);
      else await tryMove(orgId, run.seq, { state: 'deleting', step: 0, cursor: 0 });
      continue;
    }
    const step = stepAt(run.step);
    if (!step) {
      await tryMove(orgId, run.seq, { state: 'done', keepSeconds: config().auditRetentionDays * 86400 });
      logger.info('offboarding: organisation deleted', { org_id: orgId, deleted: run.deleted });
      return;
    }
    const next = await SWEEPS[step]({ orgId, createdAt: run.org_created_at, cursor: run.cursor, nowMs: now });
    if (next === 'wait') await sleep(INDEX_LAG_MS);
    else if (next === undefined) await tryMove(orgId, run.seq, { step: run.step + 1, cursor: 0 });
    else if (await applyDeletion(orgId, run.seq, next)) lost = 0;
    else if (++lost >= MAX_LOST) throw new Error(`offboarding of ${orgId}: ${MAX_LOST} races lost in a row in step ${step}`);
  }
}

/** The worker's batch: each run the records show not done, worked on for about `workMs` in turn. */
export async function workOnRuns(records: readonly FeedRecord[], workMs: number): Promise<void> {
  const orgs = runsToWork(records);
  for (const orgId of orgs) await runOffboarding(orgId, workMs / orgs.length);
}
