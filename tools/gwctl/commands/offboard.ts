/**
 * gwctl offboard (docs/operating/organisations.md "Offboard an organisation"): starts deleting an
 * organisation with everything it owns, or shows the run under way; with --wait, follows it to the
 * end, a line each time its step changes. The admin credential comes from GW_ADMIN_SECRET.
 */
import { adminClient, GwctlError, HttpError } from '../client';
import type { Io } from './io';

type Run = { state: string; step: string | null; steps_done: number; deleted_total: number; deleted: Record<string, number> };

const line = (r: Run) => `${r.state}${r.step ? ` (step ${r.steps_done + 1} of 10: ${r.step})` : ''}, ${r.deleted_total} items deleted`;

export async function offboard(o: { org?: string; wait: boolean }, io: Io): Promise<number> {
  if (!o.org) throw new GwctlError('--org-id ID: the organisation to offboard');
  const client = adminClient(io.env);
  const path = { params: { path: { orgID: o.org } } };
  const started = await client.DELETE('/admin/organisations/{orgID}', path);
  if (!started.response.ok) throw new HttpError(started.response.status, `offboard ${o.org}`, started.error);
  let run = started.data!.Meta as Run;
  io.out(`${o.org}: ${started.data!.Message}; ${line(run)}`);
  if (!o.wait) return 0;
  let last = line(run);
  while (run.state !== 'done') {
    await new Promise((r) => setTimeout(r, 1000));
    const read = await client.GET('/admin/organisations/{orgID}/offboarding', path);
    if (!read.response.ok) throw new HttpError(read.response.status, `offboarding of ${o.org}`, read.error);
    run = read.data!.Meta as Run;
    if (line(run) !== last) io.out(`${o.org}: ${(last = line(run))}`);
  }
  for (const [kind, n] of Object.entries(run.deleted)) io.out(`  ${kind} ${n}`);
  return 0;
}
