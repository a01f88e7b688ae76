/**
 * A client generated from the stage's /openapi.json with third-party tools only: openapi-typescript
 * writes the types, openapi-fetch is the client, and the flow in ./typed-client/flow.ts (an org, a
 * user, an OAS API, a key, a check) compiles against them under --strict with no casts, then runs
 * against the stage.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStage, type Stage } from '../support/stage';
import { ADMIN_SECRET, GW_SECRET } from '../support/table';

/** The flow's module as this test sees it (not imported: it compiles only beside its generated types). */
interface FlowModule {
  runFlow(baseUrl: string, credentials: { admin: string; gateway: string }, tag: string): Promise<Record<string, unknown>>;
}

const FLOW = join(__dirname, 'typed-client', 'flow.ts');
let s: Stage;
let dir: string;

beforeAll(async () => {
  s = await startStage();
  // Inside the project, so the generated client resolves openapi-fetch from its node_modules.
  const cache = join(process.cwd(), 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  dir = mkdtempSync(join(cache, 'typed-client-'));
});
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('types generated from /openapi.json compile a strict client with no casts that runs against the stage', async () => {
  const doc = await s.call('GET', '/openapi.json');
  expect(doc.status).toBe(200);
  writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc.body)));
  cpSync(FLOW, join(dir, 'flow.ts'));

  const source = readFileSync(FLOW, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  expect(source.match(/\bas\s+(?!const\b)\w|<\w+>\s*\w|\bany\b|@ts-/g), 'casts, any or ts directives in the client').toBeNull();

  const program = ts.createProgram([join(dir, 'flow.ts')], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    noEmit: true,
    skipLibCheck: true,
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(problems).toEqual([]);

  const { runFlow } = (await import(pathToFileURL(join(dir, 'flow.ts')).href)) as FlowModule;
  const result = await runFlow(s.url, { admin: ADMIN_SECRET, gateway: GW_SECRET }, `${process.pid}-${Date.now().toString(36)}`);
  expect(result).toMatchObject({ allowed: true, quotaRemaining: 0, refusal: 'QuotaExceeded', listedUsers: 1 });
  expect(result.keyHash).toMatch(/^[0-9a-f]{64}$/);
  expect(result.apiId).toMatch(/^typed-api-/);
});
