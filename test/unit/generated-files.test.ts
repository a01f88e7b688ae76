/**
 * One policy for generated files (CONTRIBUTING.md, "Generated files"): a generated file that code
 * reads or compiles against is committed, so a fresh clone type-checks, runs and reviews without a
 * generation step, and each must equal what `npm run generate` writes from the current route table.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generatedFiles } from '../../scripts/generated-files';

it('every generated file is committed and current (npm run generate rewrites them)', async () => {
  const files = await generatedFiles();
  const tracked = execFileSync('git', ['ls-files', '--', ...files.map((f) => f.path)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  expect(tracked.sort(), 'generated files are committed (git add them; none is in .gitignore)').toEqual(files.map((f) => f.path).sort());
  const stale = files.filter((f) => readFileSync(f.path, 'utf8') !== f.text).map((f) => f.path);
  expect(stale, 'stale: npm run generate').toEqual([]);
}, 60_000);
