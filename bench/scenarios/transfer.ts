import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStage } from '../../test/support/stage';
import type { Ctx } from '../lib/context';
import { call } from '../lib/http';
import { largeOrgFile } from '../lib/large-file';
import { UNLIMITED_ORGS } from '../lib/stage';
import { round, type Row } from '../lib/stats';

/** The organisation the issue names, and one that one request imports on the local stage. */
const SIZES = [
  { keys: 10_000, apis: 1_000 },
  { keys: 2_000, apis: 200 },
];

/**
 * Export and import (contract §9): organisations of 10,000 keys and 1,000 APIs, and of 2,000 and
 * 200, exported from the bench stage and imported into a second installation (another table on
 * the same DynamoDB Local, served by a second stage): the time of each, the file's size, and
 * whether the second installation exports the same bytes.
 */
export async function transfer(ctx: Ctx): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-b-'));
  const other = await spawnStage({
    dataDir,
    output: 'stderr',
    env: {
      DYNAMODB_ENDPOINT: ctx.stage.endpoint,
      TABLE_NAME: 'gw-bench-b',
      GW_SECRET: ctx.stage.gwSecret,
      ADMIN_SECRET: ctx.stage.adminSecret,
      LOG_LEVEL: 'warn',
      ...UNLIMITED_ORGS,
    },
  });
  try {
    const rows: Row[] = [];
    for (const n of SIZES) rows.push(...(await moveOne(ctx, other.url, n)));
    return rows;
  } finally {
    await other.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function moveOne(ctx: Ctx, to: string, n: { keys: number; apis: number }): Promise<Row[]> {
  const orgId = `bench-transfer-${n.keys}-${Date.now().toString(36)}`;
  const made = await largeOrgFile(ctx, orgId, n);
  const t0 = performance.now();
  const first = await call(ctx.stage.url, 'POST', '/admin/organisations/import', ctx.admin, made);
  const firstSeconds = (performance.now() - t0) / 1000;
  if (first.status !== 200)
    throw new Error(`the made file's import answered ${first.status} after ${round(firstSeconds)} s: ${JSON.stringify(first.body).slice(0, 300)}`);
  const t1 = performance.now();
  const exported = await fetch(`${ctx.stage.url}/admin/organisations/${orgId}/export`, { headers: ctx.admin });
  const file = await exported.text();
  const exportSeconds = (performance.now() - t1) / 1000;
  if (exported.status !== 200) throw new Error(`export ${exported.status}: ${file.slice(0, 300)}`);
  const bytes = Buffer.byteLength(file);
  const t2 = performance.now();
  const imported = await call(to, 'POST', '/admin/organisations/import', ctx.admin, JSON.parse(file));
  const importSeconds = (performance.now() - t2) / 1000;
  const same = imported.status === 200 && (await (await fetch(`${to}/admin/organisations/${orgId}/export`, { headers: ctx.admin })).text()) === file;
  const detail = {
    [`keys_${n.keys}`]: n.keys,
    [`apis_${n.keys}`]: n.apis,
    [`first_import_status_${n.keys}`]: first.status,
    [`first_import_seconds_${n.keys}`]: round(firstSeconds),
    [`import_status_${n.keys}`]: imported.status,
    [`round_trip_identical_${n.keys}`]: same ? 'yes' : 'no',
    ...(imported.status !== 200 ? { [`answer_${n.keys}`]: String((imported.body as { Message?: string }).Message).slice(0, 160) } : {}),
  };
  const of = `${n.keys} keys and ${n.apis} APIs`;
  return [
    { scenario: 'transfer', measured: `export of an organisation of ${of}, seconds`, value: round(exportSeconds), target: 'reported', pass: true, detail },
    {
      scenario: 'transfer',
      measured: `its file (${of}), MB`,
      value: round(bytes / 1e6),
      target: '≤ 5 (the body limit)',
      pass: bytes <= 5 * 1024 * 1024,
      detail,
    },
    {
      scenario: 'transfer',
      measured: `import of that file (${of}) into another installation, seconds`,
      value: round(importSeconds),
      target: 'imported within one request',
      pass: same,
      detail,
    },
  ];
}
