/**
 * No source line over 160 characters (biome.jsonc's lineWidth). Biome's formatter breaks code,
 * but not a string or a comment: those are split by hand, and this test says where.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_PATHS } from '../../scripts/generated-files';

const MAX = 160;

it(`no .ts or .cjs line of the repository is over ${MAX} characters`, () => {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.cjs'], { encoding: 'utf8' });
  // The generated files are laid out by their generator (npm run generate).
  const generated: readonly string[] = GENERATED_PATHS;
  const files = listed.split('\n').filter((f) => f && !generated.includes(f));
  expect(files.length).toBeGreaterThan(100);
  const long = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.length > MAX ? [`${f}:${i + 1} (${line.length})`] : [])),
  );
  expect(long, 'split the string or the comment').toEqual([]);
});
