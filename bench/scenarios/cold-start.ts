import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { routeList } from '../../shared/routes';
import { bundle, OUT_DIR } from '../lib/bundle';
import { interleaved, median, round, type Row } from '../lib/stats';

/** Modules a route's bundle keeps outside (they read files of their own package at run time). */
const externalsOf = (r: { nodeModules?: readonly string[] }) => [...(r.nodeModules ?? [])];

/** Milliseconds to import a bundle in a fresh Node process (what a cold start pays). */
async function importOnce(file: string): Promise<number> {
  const script = `const t=performance.now();await import(${JSON.stringify(file)});process.stdout.write(String(performance.now()-t))`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1' } }));
}

/**
 * Median import times of a bundle and of the yardstick, imported alternately: the machine's drift
 * over the scenario's minutes (shared cores) then moves both alike, where one yardstick measured
 * at the start made the slowest of 117 functions a measure of the noisiest minute.
 */
async function pairedMs(file: string, yardstick: string, runs: number): Promise<{ ms: number; baseMs: number }> {
  const { a, b } = await interleaved(
    runs,
    () => importOnce(file),
    () => importOnce(yardstick),
  );
  return { ms: median(a), baseMs: median(b) };
}

/** Every function's bundle size and import time vs a bundle that only builds the document client. */
export async function coldStart(runs = 7): Promise<Row[]> {
  mkdirSync(OUT_DIR, { recursive: true });
  const baselineEntry = join(OUT_DIR, 'sdk-only.ts');
  writeFileSync(
    baselineEntry,
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n" +
      'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => typeof doc.send;\n',
  );
  // The yardstick: the document client alone, bundled as the SDK comes (one file, default chain).
  const base = await bundle('sdk-only', baselineEntry, [], { plain: true });
  // The same entry under the stack's bundling, to show what the bundling itself saves.
  const baseOurs = await bundle('sdk-only-split', baselineEntry);
  const rows: Row[] = [];
  const functions = [...new Map(routeList.map((r) => [r.entry, r])).values()];
  let worstSize = 0;
  let worstTime = 0;
  let sizeOk = 0;
  let timeOk = 0;
  const failures: string[] = [];
  const ours = await pairedMs(baseOurs.file, base.file, runs);
  const baseSamples: number[] = [];
  const detail: Record<string, number | string> = {
    sdk_only_bytes: base.bytes,
    sdk_only_under_stack_bundling_start_bytes: baseOurs.bytes,
    sdk_only_under_stack_bundling_import_ms: round(ours.ms),
  };
  let worstTotal = 0;
  for (const r of functions) {
    const name = r.entry
      .replace(/^functions\//, '')
      .replace(/\.ts$/, '')
      .replace(/\//g, '-');
    const b = await bundle(name, r.entry, externalsOf(r as { nodeModules?: string[] }));
    const { ms, baseMs } = await pairedMs(b.file, base.file, runs);
    baseSamples.push(baseMs);
    const sizeRatio = b.bytes / base.bytes;
    const timeRatio = ms / baseMs;
    detail[`${name}_bytes`] = b.bytes;
    detail[`${name}_all_files_bytes`] = b.totalBytes;
    worstTotal = Math.max(worstTotal, b.totalBytes / base.bytes);
    detail[`${name}_import_ms`] = round(ms);
    detail[`${name}_yardstick_ms`] = round(baseMs);
    detail[`${name}_import_ratio`] = round(timeRatio);
    worstSize = Math.max(worstSize, sizeRatio);
    worstTime = Math.max(worstTime, timeRatio);
    if (sizeRatio <= 1.3) sizeOk++;
    if (timeRatio <= 1.3) timeOk++;
    if (sizeRatio > 1.3 || timeRatio > 1.3) failures.push(`${name} (size ${round(sizeRatio)}, import ${round(timeRatio)})`);
  }
  // The yardstick's import as measured beside each function: its median, and its spread over the run.
  detail.sdk_only_import_ms = round(median(baseSamples));
  detail.sdk_only_import_ms_range = `${round(Math.min(...baseSamples))}-${round(Math.max(...baseSamples))}`;
  detail.over_target = failures.join('; ') || 'none';
  detail.largest_all_files_ratio = round(worstTotal);
  detail.functions_within_size_target = `${sizeOk} of ${functions.length}`;
  detail.functions_within_import_target = `${timeOk} of ${functions.length}`;
  rows.push({
    scenario: 'cold start',
    measured: `largest bundle loaded at start / SDK-only bundle (${functions.length} functions)`,
    value: round(worstSize),
    target: '<= 1.3',
    pass: worstSize <= 1.3,
    detail,
  });
  rows.push({
    scenario: 'cold start',
    measured: `slowest import / SDK-only import, medians of ${runs} each, imported alternately`,
    value: round(worstTime),
    target: '<= 1.3',
    pass: worstTime <= 1.3,
    detail,
  });
  return rows;
}
