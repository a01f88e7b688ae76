/** gwctl diff: the plan, for people (text) or machines (json); exit 0 no change, 2 changes, 1 error. */
import { writeFileSync } from 'node:fs';
import { GwctlError } from '../client';
import { readFolder } from '../folder';
import { makePlan, planText } from '../plan';
import { connect, knownOf, readOrg } from '../state';
import { validateFolder } from '../validate';
import type { Io } from './io';
import { formatProblem } from './validate';

export interface PlanOptions {
  dir: string;
  selectTags: string[];
  prune: boolean;
}

/** Reads the folder and the organisation; a folder that does not validate stops here. */
export async function planFor(opts: PlanOptions, io: Io) {
  const { files, problems } = readFolder(opts.dir);
  const ctx = await connect(io.env);
  const state = await readOrg(ctx);
  const all = [...problems, ...validateFolder(opts.dir, files, knownOf(state))];
  if (all.length) {
    for (const p of all) io.err(formatProblem(p));
    throw new GwctlError(`${opts.dir} does not validate (${all.length} problem${all.length === 1 ? '' : 's'})`);
  }
  return { ctx, files, state, plan: makePlan(ctx.org, files, state, opts) };
}

export async function diff(opts: PlanOptions & { output: 'text' | 'json'; planOut: string | undefined }, io: Io): Promise<number> {
  const { plan } = await planFor(opts, io);
  if (opts.planOut) writeFileSync(opts.planOut, `${JSON.stringify(plan, null, 2)}\n`);
  if (opts.output === 'json') io.out(JSON.stringify(plan, null, 2));
  else for (const l of planText(plan)) io.out(l);
  return plan.changes.length ? 2 : 0;
}
