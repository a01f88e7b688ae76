/**
 * The type check is a gate of `npm test`: every TypeScript file of the repository belongs to one
 * of the two projects (the service, its tools and tests; the console, which compiles against the
 * DOM instead of Node), and each compiles under its tsconfig with no error. tsc runs incrementally
 * (its build info under node_modules/.cache/tsc), so a second run on an unchanged tree takes seconds.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = resolve('.');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const PROJECTS = { service: 'tsconfig.json', console: 'console/tsconfig.json' };
/** Compiled by its own test against the types it generates from a running stage (test/e2e/typed-client.test.ts). */
const OWN_CHECK = ['test/e2e/typed-client/flow.ts'];

function filesOf(project: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, project), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  return parsed.fileNames.map((f) => relative(ROOT, f));
}

it('every TypeScript file of the repository is in one of the projects', () => {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mts', '*.cts'], { encoding: 'utf8' });
  const covered = new Set([...Object.values(PROJECTS).flatMap(filesOf), ...OWN_CHECK]);
  expect(
    listed.split('\n').filter((f) => f && !covered.has(f)),
    "add these to a project's include",
  ).toEqual([]);
});

for (const [name, project] of Object.entries(PROJECTS)) {
  it.concurrent(`the ${name} (${project}) compiles with 0 type errors`, async () => {
    const buildInfo = join(ROOT, 'node_modules', '.cache', 'tsc', `${name}.tsbuildinfo`);
    const args = [TSC, '--noEmit', '-p', project, '--pretty', 'false', '--incremental', '--tsBuildInfoFile', buildInfo];
    const { stdout, stderr, status } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).then(
      (r) => ({ ...r, status: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => ({ stdout: e.stdout, stderr: e.stderr, status: e.code }),
    );
    expect(`${stdout}${stderr}`.split('\n').filter(Boolean), `type errors (npm run typecheck)`).toEqual([]);
    expect(status).toBe(0);
  }, 600_000);
}
