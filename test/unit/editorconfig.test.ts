/**
 * .editorconfig tells editors the house format before Biome rewrites it: it agrees with
 * biome.jsonc's formatter, and every text file of the repository already follows its [*] rules
 * (LF endings, a final newline, no trailing whitespace, no tab indentation).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { expect, it } from 'vitest';

/** The sections of an .editorconfig: glob -> key -> value. */
function sections(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = { '': {} };
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) out[(current = header[1]!)] = {};
    else {
      const [key, value] = line.split('=').map((s) => s.trim()) as [string, string];
      out[current]![key] = value;
    }
  }
  return out;
}

const editorconfig = sections(readFileSync('.editorconfig', 'utf8'));
const biome = ts.parseConfigFileTextToJson('biome.jsonc', readFileSync('biome.jsonc', 'utf8')).config as {
  formatter: { indentStyle: string; indentWidth: number; lineWidth: number; lineEnding?: string };
};

it("agrees with biome.jsonc's formatter", () => {
  expect(editorconfig['']).toEqual({ root: 'true' });
  expect(editorconfig['*']).toMatchObject({
    indent_style: biome.formatter.indentStyle,
    indent_size: String(biome.formatter.indentWidth),
    end_of_line: biome.formatter.lineEnding ?? 'lf',
  });
  expect(editorconfig['*.{ts,tsx,cjs,mjs}']).toEqual({ max_line_length: String(biome.formatter.lineWidth) });
});

it('is followed by every text file of the repository', () => {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' }).split('\n');
  const text = listed.filter((f) => f && !/\.(png|jpe?g|gif|ico|woff2?)$/.test(f));
  expect(text.length).toBeGreaterThan(500);
  const broken = text.flatMap((f) => {
    const body = readFileSync(f, 'utf8');
    const lines = body.split('\n');
    const problems = [
      body.includes('\r') && 'CR line endings',
      body.length > 0 && !body.endsWith('\n') && 'no final newline',
      lines.some((l) => l.endsWith(' ') || l.endsWith('\t')) && 'trailing whitespace',
      lines.some((l) => l.startsWith('\t')) && 'tab indentation',
    ].filter(Boolean);
    return problems.length ? [`${f}: ${problems.join(', ')}`] : [];
  });
  expect(broken).toEqual([]);
});
