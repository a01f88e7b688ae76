/**
 * The documents hold together (docs/developing/tests.md): every citation of a document in the tree
 * (`docs/using/console.md "The web console"`, `contract §13` aside) names a file that exists and
 * headings it has; every relative link of the README and the docs reaches a file and, with an
 * anchor, a heading; the README stays one screen; and no line of prose runs past 200 characters.
 * BENCHMARKS.md, which the bench writes, is what it writes from bench/results.json and reads as
 * issue 41 asks: the summary table first, then per scenario a paragraph and its figures as tables,
 * no line over 200 characters.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { savedReport } from '../../bench/lib/report';

const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && existsSync(f));
const textFiles = tracked.filter((f) => /\.(ts|tsx|mts|mjs|cjs|js|md|ya?ml|conf|sh|json)$/.test(f) || f.startsWith('.ci/'));
const documents = tracked.filter((f) => f.endsWith('.md') && !f.startsWith('node_modules/'));
const markdown = ['README.md', ...documents.filter((f) => f.startsWith('docs/'))];

/** Lines outside fenced code blocks. */
function proseLines(text: string): Array<{ line: string; n: number }> {
  let code = false;
  return text.split('\n').flatMap((line, i) => {
    if (line.startsWith('```')) {
      code = !code;
      return [];
    }
    return code ? [] : [{ line, n: i + 1 }];
  });
}

function headingsOf(file: string): Set<string> {
  return new Set(
    proseLines(readFileSync(file, 'utf8')).flatMap(({ line }) => {
      const m = /^#{1,6} (.*)$/.exec(line);
      return m ? [m[1]!.trim()] : [];
    }),
  );
}

/** GitHub's anchor of a heading. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

/** A comment may break a quoted heading over lines: its prefix (` * `, `// `, `# `) is not part of it. */
const joined = (raw: string) => raw.replace(/\n\s*(?:\*|\/\/|#)?\s*/g, ' ');

const SEP = String.raw`(?:\s*(?:\*|//|#)?\s*)`;
const QUOTED = String.raw`"((?:[^"\n]|\n\s*(?:\*|//|#)?\s*){1,100})"`;
const DOCUMENT = String.raw`((?:docs/[\w/-]+|RELIABILITY|BENCHMARKS|CONTRIBUTING|README)\.md|README)`;
const MORE = `((?:,${SEP}${QUOTED.replace('(', '(?:')})*)`;
const CITATION = new RegExp(String.raw`\b${DOCUMENT}(?:'s)?,?(?:${SEP}${QUOTED}${MORE})?`, 'g');

function citations(): Array<{ from: string; doc: string; heading?: string }> {
  const out: Array<{ from: string; doc: string; heading?: string }> = [];
  for (const from of textFiles) {
    if (from === 'package-lock.json' || from.includes('/generated/') || from.endsWith('openapi.d.ts')) continue;
    const text = readFileSync(from, 'utf8');
    for (const m of text.matchAll(CITATION)) {
      const doc = m[1] === 'README' ? 'README.md' : m[1]!;
      if (!m[2]) {
        out.push({ from, doc });
        continue;
      }
      const more = [...(m[3] ?? '').matchAll(/"((?:[^"\n]|\n\s*(?:\*|\/\/|#)?\s*){1,100})"/g)].map((x) => x[1]!);
      for (const h of [m[2], ...more]) out.push({ from, doc, heading: joined(h) });
    }
  }
  return out;
}

describe('citations of a document', () => {
  const all = citations();

  it('are many (the check reads the tree)', () => {
    expect(all.length).toBeGreaterThan(150);
  });

  it('name documents that exist and headings they have', () => {
    // A heading may carry a qualifier the citation leaves out: "Powertools" cites "Powertools: what it costs at start".
    const has = (doc: string, h: string) => [...headingsOf(doc)].some((x) => x === h || x.startsWith(`${h}:`) || x.startsWith(`${h} (`));
    const broken = all.filter((c) => !existsSync(c.doc) || (c.heading !== undefined && !has(c.doc, c.heading)));
    expect(broken.map((c) => `${c.from}: ${c.doc}${c.heading ? ` "${c.heading}"` : ''}`)).toEqual([]);
  });
});

describe('links of the README and the docs', () => {
  it('reach a file, and a heading of it when they carry an anchor', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const { line, n } of proseLines(readFileSync(file, 'utf8'))) {
        for (const m of line.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
          const target = m[1]!;
          if (/^[a-z]+:/.test(target)) continue;
          const [path, anchor] = target.split('#') as [string, string | undefined];
          const to = path ? normalize(join(dirname(file), path)) : file;
          if (!existsSync(to)) broken.push(`${file}:${n}: ${target} (no file)`);
          else if (anchor && to.endsWith('.md') && ![...headingsOf(to)].some((h) => anchorOf(h) === anchor))
            broken.push(`${file}:${n}: ${target} (no heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('make every document of docs/ reachable from the README in one click', () => {
    const readme = readFileSync('README.md', 'utf8');
    const linked = new Set([...readme.matchAll(/\]\(([^)#\s]+)/g)].map((m) => normalize(m[1]!)));
    const unreachable = documents.filter((f) => f.startsWith('docs/') && !linked.has(f));
    expect(unreachable).toEqual([]);
  });
});

describe('the documents read well', () => {
  it('the README is one screen: at most 250 lines', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('no line of prose (tables and code aside) is over 200 characters', () => {
    const long = [...markdown, 'RELIABILITY.md', 'CONTRIBUTING.md', 'BENCHMARKS.md'].flatMap((file) =>
      proseLines(readFileSync(file, 'utf8'))
        .filter(({ line }) => line.length > 200 && !line.trimStart().startsWith('|'))
        .map(({ n, line }) => `${file}:${n} (${line.length})`),
    );
    expect(long).toEqual([]);
  });
});

describe('BENCHMARKS.md', () => {
  // The committed file, so that each check below says what a reader of it meets; the first says it is current.
  const md = readFileSync('BENCHMARKS.md', 'utf8');
  const lines = md.split('\n');
  const results = JSON.parse(readFileSync('bench/results.json', 'utf8')) as {
    rows: Array<{ scenario: string; measured: string; detail: Record<string, string | number> }>;
  };
  const scenarios = [...new Set(results.rows.map((r) => r.scenario))];
  const rowsOf = (scenario: string) => results.rows.filter((r) => r.scenario === scenario);
  /** A scenario's section: the lines from its heading to the next heading. */
  const sectionOf = (scenario: string) => {
    const start = lines.indexOf(`### ${scenario}`);
    if (start < 0) return [];
    const end = lines.findIndex((l, i) => i > start && l.startsWith('#'));
    return lines.slice(start + 1, end < 0 ? undefined : end);
  };

  it('is what the bench writes from bench/results.json', () => {
    expect(md === savedReport('bench'), 'stale: npm run bench -- --render').toBe(true);
  });

  it('has no line over 200 characters, table rows included', () => {
    expect(lines.flatMap((l, i) => (l.length > 200 ? [`BENCHMARKS.md:${i + 1} (${l.length})`] : []))).toEqual([]);
  });

  it('opens with the summary table, one row per judged figure, before any section', () => {
    const first = lines.findIndex((l) => l.startsWith('|'));
    expect(lines[first]).toBe('| scenario | measured | value | target | result |');
    expect(lines.slice(0, first).filter((l) => l.startsWith('## '))).toEqual([]);
    expect(lines.slice(first + 2).findIndex((l) => !l.startsWith('|'))).toBe(results.rows.length);
  });

  it.each(scenarios)('gives "%s" a section: when and by which command, a paragraph, then a table of its figures', (scenario) => {
    const section = sectionOf(scenario);
    const dated = section.findIndex((l) => /^Measured by `npm run bench[^`]*` on \d{4}-\d\d-\d\d/.test(l));
    const table = section.indexOf('| figure | value | target | result |');
    expect(dated).toBeGreaterThanOrEqual(0);
    expect(table).toBeGreaterThan(dated);
    // What it measures, against what, how and what the figures mean: two to five sentences (bench/scenarios.md).
    const paragraph = section
      .slice(dated + 1, table)
      .join(' ')
      .trim();
    const sentences = paragraph.split(/[.!?](?:\s|$)/).filter((s) => s.trim()).length;
    expect(sentences, paragraph || 'no paragraph: write one in bench/scenarios.md').toBeGreaterThanOrEqual(2);
    expect(sentences, paragraph).toBeLessThanOrEqual(5);
    const judged = rowsOf(scenario).filter((r) => !section.some((l) => l.startsWith(`| ${r.measured.replace(/\|/g, '\\|')} | `)));
    expect(judged.map((r) => r.measured)).toEqual([]);
  });

  it.each(scenarios)('keeps every figure "%s" recorded: each word and number of its details is in its section', (scenario) => {
    const text = sectionOf(scenario).join('\n');
    const values = rowsOf(scenario).flatMap((r) => Object.values(r.detail).map(String));
    const words = values.flatMap((v) => v.split(/[\s/;,()]+/).filter(Boolean));
    expect(words.filter((w) => !text.includes(w.replace(/\|/g, '\\|')))).toEqual([]);
  });

  it('lists every route of the routes scenario on a line of its own, worst first', () => {
    const measured = new Set(rowsOf('routes').flatMap((r) => Object.keys(r.detail).filter((k) => /^[A-Z]+ \//.test(k))));
    const routes = sectionOf('routes').filter((l) => /^\| [A-Z]+ \//.test(l));
    expect(routes.map((l) => l.split(' | ')[0]!.slice(2)).sort()).toEqual([...measured].sort());
    const ratios = routes.map((l) => Number(l.split(' | ')[1]));
    expect(
      ratios.filter((r) => !Number.isFinite(r)),
      'a column of its own',
    ).toEqual([]);
    expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
  });
});
