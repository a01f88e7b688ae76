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

export async function importOrg(o: { file?: string }, io: Io): Promise<number> {
  if (!o.file) throw new GwctlError('--file FILE: the file an export wrote');
  const r = await adminClient(io.env).POST('/admin/organisations/import', {
    body: JSON.parse(readFileSync(o.file, 'utf8')),
  });
  if (!r.response.ok || r.data === undefined) throw new HttpError(r.response.status, `import ${o.file}`, r.error);
  const m = r.data.Meta;
  io.out(
    `${m.org_id}: imported ${Object.entries(m.imported)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}; webhook secrets ${m.webhook_secrets}`,
  );
  return 0;
}
