/**
 * gwctl export and import (docs/operating/organisations.md "Move an organisation"): an
 * organisation's file written as the service answered it (its bytes are what the round trip
 * compares), and a file sent back to another installation. The admin credential comes from
 * GW_ADMIN_SECRET.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { adminClient, GwctlError, HttpError } from '../client';
import type { Io } from './io';

export async function exportOrg(o: { org?: string; out?: string; secrets: boolean }, io: Io): Promise<number> {
  if (!o.org) throw new GwctlError('--org-id ID: the organisation to export');
  if (!o.out) throw new GwctlError('--out FILE: where the file goes');
  const r = await adminClient(io.env).GET('/admin/organisations/{orgID}/export', {
    params: { path: { orgID: o.org }, query: o.secrets ? { secrets: 'true' } : {} },
    parseAs: 'text',
  });
  if (!r.response.ok || r.data === undefined) throw new HttpError(r.response.status, `export ${o.org}`, r.error);
  writeFileSync(o.out, r.data, { mode: 0o600 });
  io.out(`${o.org}: ${Buffer.byteLength(r.data)} bytes written to ${o.out}${o.secrets ? ' (with webhook signing secrets: keep it safe)' : ''}`);
  return 0;
}

type ImportRun = { state: string; written: number; total: number; reason: string | null };

/**
 * Sends the file; an import that goes on in the background (its request ran out of time, or
 * --background asked it to) is followed to its end with --wait, a line each time it moves.
 */
export async function importOrg(o: { file?: string; background: boolean; wait: boolean }, io: Io): Promise<number> {
  if (!o.file) throw new GwctlError('--file FILE: the file an export wrote');
  const client = adminClient(io.env);
  const r = await client.POST('/admin/organisations/import', {
    params: { query: o.background ? { background: 'true' } : {} },
    body: JSON.parse(readFileSync(o.file, 'utf8')),
  });
  if (!r.response.ok || r.data === undefined) throw new HttpError(r.response.status, `import ${o.file}`, r.error);
  const m = r.data.Meta;
  const counts = Object.entries(m.imported)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  if (m.state === 'done') {
    io.out(`${m.org_id}: imported ${counts}; webhook secrets ${m.webhook_secrets}`);
    return 0;
  }
  io.out(`${m.org_id}: importing ${counts} in the background; webhook secrets ${m.webhook_secrets}`);
  if (!o.wait) return 0;
  const path = { params: { path: { orgID: m.org_id } } };
  let last = '';
  for (;;) {
    const read = await client.GET('/admin/organisations/{orgID}/import', path);
    if (!read.response.ok) throw new HttpError(read.response.status, `import of ${m.org_id}`, read.error);
    const run = read.data!.Meta as ImportRun;
    const line = `${run.state}, ${run.written} of ${run.total} objects written`;
    if (line !== last) io.out(`${m.org_id}: ${(last = line)}`);
    if (run.state === 'failed') throw new GwctlError(`the import of ${m.org_id} failed (${run.reason}); it is being offboarded`);
    if (run.state === 'done') return 0;
    await new Promise((res) => setTimeout(res, 1000));
  }
}
