import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that need the synthesized stack run last: its `cdk synth`, started in the background by
 * the global setup, then overlaps every other file instead of holding up a test worker.
 */
class SynthesizedStackLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Every file that reads the synthesized stack (test/support/assembly.ts).
    const late = (f: TestSpecification) => /[/\\]test[/\\](emulator[/\\]|infra[/\\](synth|diff-artifact)\.test)/.test(f.moduleId);
    return [...sorted.filter((f) => !late(f)), ...sorted.filter(late)];
  }
}

/**
 * Checks that read the whole tree rather than run behaviour: the type check of both projects, the
 * generated files regenerated, the dependency rules, the handler types compiled, every regex
 * through a ReDoS checker, knip, Biome. A minute of CPU together: `npm test` runs them beside the
 * files that wait on stages (a pretest script would run them before any file starts), and
 * `npm run test:fast` (TEST_FAST=1) leaves them out.
 */
const WHOLE_TREE_CHECKS = [
  'test/unit/type-check.test.ts',
  'test/unit/generated-files.test.ts',
  'test/unit/dependency-rules.test.ts',
  'test/unit/handler-types.test.ts',
  'test/unit/regex-safety.test.ts',
  'test/unit/knip.test.ts',
  'test/unit/biome.test.ts',
];
/**
 * Proofs that are slow by nature rather than by overhead: hundreds of concurrent conditional
 * writes against DynamoDB Local (sharded counters, analytics batches) and a CLI run through `npx`
 * in a child process (gwctl's contract). `npm test` runs them; the fast loop leaves them out.
 */
const SLOW_PROOFS = ['test/integration/sharded-counters.test.ts', 'test/integration/analytics-batches.test.ts', 'test/unit/gwctl-contract.test.ts'];
/**
 * Files that need modules of their own: two mock a module (vi.mock), one turns metrics on before
 * the metrics module loads. Both loops share modules between the other files of a worker, which
 * saves importing the SDK and the route table once per file.
 */
const OWN_MODULES = ['test/integration/metrics.test.ts', 'test/unit/idempotency-middleware.test.ts', 'test/integration/analytics-batches.test.ts'];
const fast = process.env.TEST_FAST === '1';
const FAST = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'];

const common = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // expect.poll waits 1 s by default: a browser test's click, the stage's answer and the page's
  // redraw took longer under the full suite's load (a console test failed so, passing alone). A
  // poll that is met returns at once, so the longer bound costs only a failing test.
  expect: { poll: { timeout: 10_000 } },
  pool: 'forks' as const,
  // On Node 20 the SDK warns that its 2027 releases need Node 22; the lockfile pins releases that run on 20.
  // Business metrics (EMF lines) are off in tests but for the file that reads them
  // (test/integration/metrics.test.ts turns them on).
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_METRICS_DISABLED: 'true' },
};

/**
 * The full suite. Files of a worker share their modules as in the fast loop (each still gets a
 * fresh table, empty caches and its own environment: test/support/table.ts, own-environment.ts),
 * but for OWN_MODULES. Its setup files note the table actions each route's code sends and the e2e
 * files' traffic (both checked in test/after/).
 */
const suite = {
  ...common,
  setupFiles: ['test/support/own-environment.ts', 'test/support/record-table-actions.ts', 'test/support/record-traffic.ts'],
};

export default defineConfig({
  test: {
    ...common,
    // One DynamoDB Local (in memory) for the whole run; each integration/e2e file makes its own
    // table. Declared once here, not in the projects, so it starts once.
    globalSetup: ['test/support/global-setup.ts'],
    sequence: { sequencer: SynthesizedStackLast },
    // A worker per core (vitest leaves one free by default): files spend much of their time waiting
    // on DynamoDB Local, a stage process, nginx or chromium, so a second worker on two cores fills
    // that time (e2e + hardening: 7.2 -> 4.6 min on 2 cores).
    maxWorkers: availableParallelism(),
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitest-results.json' }]] : ['default'],
    projects: [
      ...(fast
        ? [
            {
              test: { ...common, name: 'fast', include: FAST, exclude: [...WHOLE_TREE_CHECKS, ...SLOW_PROOFS, ...OWN_MODULES], isolate: false },
            },
            { test: { ...common, name: 'fast-isolated', include: OWN_MODULES, exclude: SLOW_PROOFS } },
          ]
        : [
            { test: { ...suite, name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/after/**', ...OWN_MODULES], isolate: false } },
            { test: { ...suite, name: 'suite-isolated', include: OWN_MODULES } },
          ]),
      {
        // The console's components and browser-side logic (docs/using/console.md), in a simulated DOM;
        // the console itself runs in chromium in test/console/browser.test.ts.
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
        test: {
          ...common,
          name: 'console',
          include: ['console/test/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          environmentOptions: { happyDOM: { url: 'http://console.test/console/' } },
        },
      },
      {
        // Checks over what the whole suite did; runs once every other file has finished.
        test: { ...common, name: 'after-suite', include: ['test/after/**/*.test.ts'], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
