import { fileURLToPath } from 'node:url';
/**
 * npm run bench: starts its own local stage on a fresh DATA_DIR, runs each scenario against it
 * and against raw DynamoDB Local in the same run, prints the ratios with pass/fail, and writes
 * bench/results.json and BENCHMARKS.md. Absolute times are reported but only ratios are judged.
 * A run of named scenarios replaces their rows and keeps the other rows of the last results, each
 * row saying which run measured it.
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startBenchStage } from './lib/stage';
import { startFloor } from './lib/floor';
import { context } from './lib/context';
import type { Row } from './lib/stats';
import { type Machine, previousRows, report, savedReport, type StoredRow, summaryTable } from './lib/report';
import { read } from './scenarios/read';
import { write } from './scenarios/write';
import { commitWait } from './scenarios/commit-wait';
import { list } from './scenarios/list';
import { listCost } from './scenarios/list-cost';
import { quota } from './scenarios/quota';
import { hotKey } from './scenarios/hot-key';
import { coldStart } from './scenarios/cold-start';
import { routes } from './scenarios/routes';
import { emulatorColdStart } from './scenarios/emulator-cold-start';
import { importBig } from './scenarios/import';
import { analytics } from './scenarios/analytics';
import { sourceMaps } from './scenarios/source-maps';
import { gateways } from './scenarios/gateways';
import { authorizer } from './scenarios/authorizer';
import { allowedUrls } from './scenarios/allowed-urls';
import { nginxRouting } from './scenarios/nginx-routing';
import { dataPlane } from './scenarios/data-plane';
import { usage } from './scenarios/usage';
import { portal } from './scenarios/portal';
import { offboarding } from './scenarios/offboarding';
import { transfer } from './scenarios/transfer';
import { OUT_DIR } from './lib/bundle';

/** `java -version` prints to stderr. */
const javaVersion = () => spawnSync('java', ['-version'], { encoding: 'utf8' }).stderr ?? '';

/** Scenarios in the order of the steps, whatever run measured them. */
const SCENARIO_ORDER = (scenario: string, order: Map<string, number>) => {
  const i = KNOWN_SCENARIOS.indexOf(scenario);
  return i >= 0 ? i : KNOWN_SCENARIOS.length + (order.get(scenario) ?? 0);
};
const KNOWN_SCENARIOS = [
  'read',
  'write',
  'commit wait',
  'list at scale',
  'list cost',
  'quota contention',
  'hot key',
  'cold start',
  'emulator cold start',
  'import',
  'analytics',
  'nginx + ext-authz',
  'lambda authorizer',
  'routes',
  'allowed_urls',
  'definitions on nginx',
  'definitions on the data plane (emulator)',
  'usage for billing',
  'offboarding',
  'transfer',
  'portal',
];

async function main() {
  // The SDK warns that its 2027 releases need Node 22; the lockfile pins releases that run on 20.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const started = Date.now();
  mkdirSync(OUT_DIR, { recursive: true });
  const only = process.argv.slice(2);
  if (only.includes('--render')) {
    // BENCHMARKS.md again from the last results (after an edit of bench/scenarios.md or bench/analysis.md), nothing measured.
    const dir = dirname(fileURLToPath(import.meta.url));
    writeFileSync(join(dir, '..', 'BENCHMARKS.md'), savedReport(dir));
    return;
  }
  // Scenarios that only answer a design question (source maps: several minutes) run when named.
  const ON_REQUEST = ['source-maps'];
  const want = (name: string) => (only.length === 0 && !ON_REQUEST.includes(name)) || only.includes(name);
  const stage = await startBenchStage();
  const floor = await startFloor(stage);
  const rows: Row[] = [];
  try {
    const ctx = context(stage, floor);
    const steps: [string, () => Promise<Row[]>][] = [
      ['read', () => read(ctx)],
      ['write', () => write(ctx)],
      ['commit-wait', () => commitWait(ctx)],
      ['list', () => list(ctx)],
      ['list-cost', () => listCost(ctx)],
      ['quota', () => quota(ctx)],
      ['hot-key', () => hotKey(ctx)],
      ['cold-start', () => coldStart()],
      ['emulator-cold-start', () => emulatorColdStart()],
      ['import', () => importBig(ctx)],
      ['analytics', () => analytics(ctx)],
      ['gateways', () => gateways(ctx)],
      ['authorizer', () => authorizer(ctx)],
      ['routes', () => routes(ctx)],
      ['allowed-urls', () => allowedUrls(ctx)],
      ['nginx-routing', () => nginxRouting(ctx)],
      ['data-plane', () => dataPlane()],
      ['usage', () => usage(ctx)],
      ['offboarding', () => offboarding(ctx)],
      ['transfer', () => transfer(ctx)],
      ['portal', () => portal(ctx)],
      ['source-maps', () => sourceMaps()],
    ];
    for (const [name, step] of steps) {
      if (!want(name)) continue;
      const t0 = Date.now();
      // A scenario that fails is a failed row, not the end of the run: the others' rows are kept.
      const got = await step().catch((e: unknown): Row[] => {
        console.error(`${name} failed:`, e);
        const error = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);
        return [{ scenario: name, measured: 'the scenario ran to its end', value: 0, target: 'runs', pass: false, detail: { error } }];
      });
      rows.push(...got);
      console.error(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    floor.stop();
    await stage.stop();
  }
  const machine: Machine = {
    date: new Date().toISOString(),
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    java: javaVersion().split('\n')[0]?.trim() ?? 'unknown',
    command: `npm run bench${only.length ? ` -- ${only.join(' ')}` : ''}`,
    seconds: Math.round((Date.now() - started) / 1000),
    load: loadavg()
      .map((l) => l.toFixed(1))
      .join(' / '),
  };
  console.log(summaryTable(rows));
  const dir = join(dirname(fileURLToPath(import.meta.url)));
  // A run of some scenarios replaces their rows and keeps every other scenario's from earlier runs,
  // each row with when and by what it was measured.
  const ran = new Set(rows.map((r) => r.scenario));
  const fresh: StoredRow[] = rows.map((r) => ({ ...r, measured_at: machine.date, command: machine.command }));
  const kept = previousRows(join(dir, 'results.json')).filter((r) => !ran.has(r.scenario));
  const order = new Map(fresh.concat(kept).map((r, i) => [r.scenario, i]));
  const all = [...kept, ...fresh].sort((a, b) => SCENARIO_ORDER(a.scenario, order) - SCENARIO_ORDER(b.scenario, order));
  writeFileSync(join(dir, 'results.json'), `${JSON.stringify({ machine, rows: all }, null, 2)}\n`);
  writeFileSync(join(dir, '..', 'BENCHMARKS.md'), report(dir, machine, all, kept.length > 0));
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
