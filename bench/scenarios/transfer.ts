import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal } from '../../infra/local/dynamodb-local';
import { spawnStage } from '../../test/support/stage';
import type { Ctx } from '../lib/context';
import { call } from '../lib/http';
import { largeOrgFile } from '../lib/large-file';
import { UNLIMITED_ORGS } from '../lib/stage';
import { round, type Row } from '../lib/stats';

/** The organisation the issue names (a second, smaller one would meet the first's feed still busy on DynamoDB Local). */
const SIZES = [{ keys: 10_000, apis: 1_000 }];

/**
 * Export and import (contract §9): an organisation of 10,000 keys and 1,000 APIs, imported into
 * the bench stage, exported from it and imported into a second installation (a second stage on a
 * DynamoDB Local of its own): the time of each to its end, the file's size, and whether the second
 * installation exports the same bytes.
 */
export async function transfer(ctx: Ctx): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-b-'));
  // Its own DynamoDB Local, as another installation has its own table: on the bench stage's, the
  // first import's stream records keep it too busy to measure the second.
  const dynamo = await startDynamoLocal(join(dataDir, 'dynamodb'));
  const other = await spawnStage({
    dataDir,
    output: 'stderr',
    env: {
      DYNAMODB_ENDPOINT: dynamo.endpoint,
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
    await dynamo.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** An import to its end: the request, then (when it handed the rest over) its background run to done. */
async function importToEnd(ctx: Ctx, url: string, file: unknown): Promise<{ seconds: number; requestSeconds: number; state: string; answer: string }> {
  const t0 = performance.now();
  const r = await call(url, 'POST', '/admin/organisations/import', ctx.admin, file);
  const requestSeconds = (performance.now() - t0) / 1000;
  const meta = (r.body as { Meta?: { state: string } }).Meta;
  // A request cut off by its timeout (503) leaves its run to the background: it is followed like any other.
  if ((r.status !== 200 || !meta) && r.status !== 503)
    return { seconds: requestSeconds, requestSeconds, state: `answered ${r.status}`, answer: JSON.stringify(r.body).slice(0, 200) };
  const orgId = String((file as { organisation: { id: string } }).organisation.id);
  let state = meta?.state ?? 'importing';
  while (state === 'importing') {
    if (performance.now() - t0 > 20 * 60_000) throw new Error('the import did not end in 20 minutes');
    await new Promise((res) => setTimeout(res, 250));
    const run = await call(url, 'GET', `/admin/organisations/${orgId}/import`, ctx.admin);
    state = run.status === 200 ? (run.body as { Meta: { state: string } }).Meta.state : `run answered ${run.status}`;
  }
  const answer = meta?.state === 'done' ? 'in its request' : meta ? 'handed over' : 'request cut off (503), run taken over';
  return { seconds: (performance.now() - t0) / 1000, requestSeconds, state, answer };
}

/**
 * The organisation's export and how long it took. Right after a large import the stage's change
 * feed is still busy with its records (on DynamoDB Local every write costs a walk of the stream):
 * an export that runs out of time (503) is asked again 30 s later.
 */
async function exportOf(ctx: Ctx, url: string, orgId: string): Promise<{ status: number; file: string; seconds: number; tries: number }> {
  for (let tries = 1; ; tries++) {
    const t0 = performance.now();
    const r = await fetch(`${url}/admin/organisations/${orgId}/export`, { headers: ctx.admin });
    const file = await r.text();
    if (r.status !== 503 || tries >= 40) return { status: r.status, file, seconds: (performance.now() - t0) / 1000, tries };
    await new Promise((res) => setTimeout(res, 30_000));
  }
}

async function moveOne(ctx: Ctx, to: string, n: { keys: number; apis: number }): Promise<Row[]> {
  const orgId = `bench-transfer-${n.keys}-${Date.now().toString(36)}`;
  const first = await importToEnd(ctx, ctx.stage.url, await largeOrgFile(ctx, orgId, n));
  // Each phase on stderr as it ends: a run stopped midway still shows what it measured.
  console.error(`transfer: import of the made file ended ${first.state} after ${round(first.seconds)} s`);
  if (first.state !== 'done') throw new Error(`the made file's import ended ${first.state}: ${first.answer}`);
  const { status, file, seconds: exportSeconds, tries: exportTries } = await exportOf(ctx, ctx.stage.url, orgId);
  if (status !== 200) throw new Error(`export ${status}: ${file.slice(0, 300)}`);
  console.error(`transfer: export ${round(exportSeconds)} s (try ${exportTries}), ${Buffer.byteLength(file)} bytes`);
  const bytes = Buffer.byteLength(file);
  const imported = await importToEnd(ctx, to, JSON.parse(file));
  const same = imported.state === 'done' && (await exportOf(ctx, to, orgId)).file === file;
  const importSeconds = imported.seconds;
  const detail = {
    [`keys_${n.keys}`]: n.keys,
    [`apis_${n.keys}`]: n.apis,
    [`first_import_seconds_${n.keys}`]: round(first.seconds),
    [`export_tries_${n.keys}`]: exportTries,
    [`import_state_${n.keys}`]: imported.state,
    [`import_request_seconds_${n.keys}`]: round(imported.requestSeconds),
    [`import_written_${n.keys}`]: imported.answer,
    [`round_trip_identical_${n.keys}`]: same ? 'yes' : 'no',
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
      measured: `import of that file (${of}) into another installation, to its end, seconds`,
      value: round(importSeconds),
      target: 'done, and the same bytes exported',
      pass: same,
      detail,
    },
  ];
}
