/**
 * BENCHMARKS.md from the rows of bench/results.json: the summary table, then a short section per
 * scenario (its paragraph from bench/scenarios.md, its figures as tables), then bench/analysis.md.
 * Apart from bench/run.ts so that a test can render it without starting a bench.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from './stats';

/** A row as results.json keeps it: when and by which command it was measured. */
export type StoredRow = Row & { measured_at: string; command: string };

export type Machine = { date: string; cpus: string; memory_gb: number; node: string; java: string; command: string; seconds: number; load: string };

/** The rows of the last results.json; rows written before rows carried their date take the file's. */
export function previousRows(file: string): StoredRow[] {
  if (!existsSync(file)) return [];
  const old = JSON.parse(readFileSync(file, 'utf8')) as { machine?: { date?: string; command?: string }; rows?: Array<Row & Partial<StoredRow>> };
  return (old.rows ?? []).map((r) => ({
    ...r,
    measured_at: r.measured_at ?? old.machine?.date ?? 'unknown',
    command: r.command ?? old.machine?.command ?? 'unknown',
  }));
}

/** A row of a Markdown table; a `|` inside a cell would end it. */
const cells = (values: ReadonlyArray<string | number>) => `| ${values.map((v) => String(v).replace(/\|/g, '\\|')).join(' | ')} |`;

/** A Markdown table of a header and its rows. */
const table = (header: string[], rows: ReadonlyArray<ReadonlyArray<string | number>>) => [
  cells(header),
  `|${header.map(() => '---|').join('')}`,
  ...rows.map(cells),
];

const verdict = (pass: boolean) => (pass ? 'pass' : '**miss**');

/** A detail of a scenario's rows, as it reads in its section: `stage_p50_ms` is "stage p50 ms". */
type Figure = { key: string; value: string };
const label = (key: string) => key.replace(/_/g, ' ');

/**
 * Every detail of a scenario's rows once. A value its rows share is given as it is; one that
 * differs between them (each row's own latency, say) is given per value with the rows it belongs
 * to, by their places in the section's table, so no row's figure is lost to another's.
 */
function figuresOf(rows: readonly Row[]): Figure[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.detail)))];
  return keys.map((key) => {
    const places = new Map<string, number[]>();
    rows.forEach((r, i) => {
      if (Object.hasOwn(r.detail, key)) places.set(String(r.detail[key]), [...(places.get(String(r.detail[key])) ?? []), i + 1]);
    });
    const values = [...places];
    if (values.length === 1) return { key, value: values[0]![0] };
    return { key, value: values.map(([v, at]) => `${v} (${at.length > 1 ? 'rows' : 'row'} ${at.join(', ')})`).join(', ') };
  });
}

/**
 * A scenario whose details are many of one kind (a figure per function, route or round) shows them
 * as one table row per function, route or round instead: `lines` is that table, `rest` the figures
 * it does not hold.
 */
type Pivot = (figures: Figure[]) => { lines: string[]; rest: Figure[] };

/** The entries of a list `item (text); item (text)` that name one of `items`, by item, and the entries naming none. */
function notesOf(list: string, items: ReadonlyMap<string, unknown>): { noted: Map<string, string>; unnoted: string[] } {
  const noted = new Map<string, string>();
  const unnoted: string[] = [];
  for (const entry of list.split('; ')) {
    const m = /^(.+?) \((.*)\)$/.exec(entry);
    if (m && items.has(m[1]!)) noted.set(m[1]!, m[2]!);
    else unnoted.push(entry);
  }
  return { noted, unnoted };
}

/**
 * One row per item of the details named `<item>_<column>`, for an item with at least two of the
 * columns (a lone match is some other figure: `sdk_only_under_stack_bundling_start_bytes`).
 * `notes` names a detail listing some of the items as `item (text); item (text)`: each text goes
 * beside its item, and what names no item stays a figure.
 */
function perItem(item: string, columns: Record<string, string>, notes?: { key: string; header: string }): Pivot {
  // The longest first, so that `x_cpu_ratio` is x's `cpu_ratio`, not `x_cpu`'s `ratio`.
  const suffixes = Object.keys(columns).sort((a, b) => b.length - a.length);
  const itemOf = (key: string) => {
    const suffix = suffixes.find((s) => key.endsWith(`_${s}`));
    return suffix ? { name: key.slice(0, -suffix.length - 1), column: suffix } : undefined;
  };
  return (figures) => {
    const items = new Map<string, Map<string, string>>();
    for (const f of figures) {
      const at = itemOf(f.key);
      if (at) items.set(at.name, (items.get(at.name) ?? new Map<string, string>()).set(at.column, f.value));
    }
    const rows = new Map([...items].filter(([, got]) => got.size >= 2));
    const listed = figures.find((f) => f.key === notes?.key);
    const { noted, unnoted } = notesOf(listed?.value ?? '', rows);
    const rest = figures.flatMap((f) => {
      if (rows.has(itemOf(f.key)?.name ?? '')) return [];
      if (f === listed) return unnoted.length ? [{ key: f.key, value: unnoted.join('; ') }] : [];
      return [f];
    });
    const header = [item, ...Object.values(columns), ...(notes ? [notes.header] : [])];
    const body = [...rows].map(([name, got]) => [label(name), ...Object.keys(columns).map((c) => got.get(c) ?? ''), ...(notes ? [noted.get(name) ?? ''] : [])]);
    return { lines: table(header, body), rest };
  };
}

/** A route's figure as the routes scenario writes it: `1.5 (6 / 4 ms, document client 5 ms, handlers alone 1.39, 1 calls, 200×25) miss`. */
const BILLED = /^(\S+) \((\d+) \/ (\d+) ms, document client (\d+) ms, handlers alone (\S+), (\d+) calls, (.*)\)( miss)?$/;

/** The routes scenario: one row per route, worst ratio first, each of its figures a column. */
const perRoute: Pivot = (figures) => {
  const routes = figures.filter((f) => /^[A-Z]+ \//.test(f.key));
  const rows = routes.map((f) => {
    const m = BILLED.exec(f.value);
    if (!m) throw new Error(`routes: "${f.key}" has a figure bench/lib/report.ts cannot read: ${f.value}`);
    return [f.key, m[1]!, `${m[2]} / ${m[3]}`, m[4]!, m[5]!, m[6]!, m[7]!, verdict(!m[8])];
  });
  rows.sort((a, b) => Number(b[1]) - Number(a[1]));
  const header = [
    'route',
    'route / floor',
    'billed p50 ms, route / floor',
    'same calls, document client, ms',
    'handlers alone',
    'DynamoDB calls',
    'statuses',
    'result',
  ];
  return { lines: table(header, rows), rest: figures.filter((f) => !routes.includes(f)) };
};

/** Details measured once per round (`557 / 558 / 581`): one row per figure, one column per round. */
function perRound(round: string): Pivot {
  return (figures) => {
    const parts = (f: Figure) => f.value.split(' / ');
    const rounds = Math.max(...figures.map((f) => parts(f).length));
    const held = figures.filter((f) => rounds > 1 && parts(f).length === rounds);
    const header = ['figure', ...Array.from({ length: rounds }, (_, i) => `${round} ${i + 1}`)];
    const body = held.map((f) => [label(f.key), ...parts(f)]);
    return { lines: held.length ? table(header, body) : [], rest: figures.filter((f) => !held.includes(f)) };
  };
}

const PIVOTS: Record<string, Pivot> = {
  'cold start': perItem(
    'function',
    {
      bytes: 'start bytes',
      all_files_bytes: 'all files bytes',
      import_ms: 'import ms',
      yardstick_ms: 'SDK-only beside it, ms',
      import_ratio: 'import / SDK-only',
    },
    { key: 'over_target', header: 'over target (size, import / SDK-only)' },
  ),
  'emulator cold start': perItem('function', { init_ms: 'INIT ms', ratio: 'INIT / SDK-only', init_cpu_ms: 'INIT CPU ms', cpu_ratio: 'CPU / SDK-only' }),
  routes: perRoute,
  'nginx + ext-authz': perRound('round'),
  'definitions on nginx': perRound('run'),
};

/** The paragraph under each `## <scenario>` heading of bench/scenarios.md, by scenario. */
function paragraphsOf(text: string): Map<string, string> {
  const parts = text.split(/^## /m).slice(1);
  return new Map(
    parts.map((part) => {
      const [name, ...body] = part.split('\n');
      return [name!.trim(), body.join('\n').trim()];
    }),
  );
}

/**
 * A scenario's section: when and by which command it was measured, what it measures (written by
 * hand: a scenario without a paragraph has none, which the BENCHMARKS.md test refuses), then one
 * table of its judged figures (as in the summary) and every other figure it recorded, then, for a
 * scenario with a figure per function, route or round, one row each.
 */
function section(scenario: string, rows: StoredRow[], paragraph: string | undefined): string[] {
  const runs = [...new Set(rows.map((r) => `\`${r.command}\` on ${r.measured_at.slice(0, 10)}`))].join('; ');
  const figures = figuresOf(rows);
  const { lines, rest } = PIVOTS[scenario]?.(figures) ?? { lines: [], rest: figures };
  const judged = rows.map((r) => [r.measured, r.value, r.target, verdict(r.pass)]);
  return [
    `### ${scenario}`,
    '',
    `Measured by ${runs}.`,
    '',
    ...(paragraph ? [paragraph, ''] : []),
    ...table(['figure', 'value', 'target', 'result'], [...judged, ...rest.map((f) => [label(f.key), f.value, '', ''])]),
    '',
    ...(lines.length ? [...lines, ''] : []),
  ];
}

/** A section per scenario, in the order of the rows, each with its paragraph of `paragraphs`. */
function sections(all: StoredRow[], paragraphs: Map<string, string>): string[] {
  const scenarios = [...new Set(all.map((r) => r.scenario))];
  const rowsOf = (scenario: string) => all.filter((r) => r.scenario === scenario);
  return scenarios.flatMap((scenario) => section(scenario, rowsOf(scenario), paragraphs.get(scenario)));
}

/** The summary: one row per judged figure. */
export function summaryTable(rows: Row[]): string {
  return table(
    ['scenario', 'measured', 'value', 'target', 'result'],
    rows.map((r) => [r.scenario, r.measured, r.value, r.target, verdict(r.pass)]),
  ).join('\n');
}

/** BENCHMARKS.md from the rows, with the paragraphs of bench/scenarios.md and, after the sections, bench/analysis.md (both in `dir`). */
export function report(dir: string, machine: Machine, all: StoredRow[], keptSome: boolean): string {
  return [
    '# Benchmarks',
    '',
    `Last run: \`${machine.command}\` on ${machine.date} (${machine.seconds} s),`,
    `on ${machine.cpus}, ${machine.memory_gb} GB, Node ${machine.node}, ${machine.java}, load average ${machine.load}.`,
    keptSome ? "Rows of scenarios that run did not measure are kept from earlier runs; each one's date and command are in its details." : '',
    'Each figure is a ratio against raw DynamoDB Local measured in the same run (absolute times drift between runs on shared machines).',
    '',
    summaryTable(all),
    '',
    '## Details',
    '',
    'Per scenario: when and by which command it was measured, what it measures, then its judged figures and every other figure it recorded.',
    "Where a recorded figure differs between a scenario's judged figures, each value names the rows it belongs to (their places in the section's table).",
    '',
    ...sections(all, paragraphsOf(readFileSync(join(dir, 'scenarios.md'), 'utf8'))),
    readFileSync(join(dir, 'analysis.md'), 'utf8'),
  ].join('\n');
}

/** BENCHMARKS.md again from the last results in `dir` (bench/results.json), nothing measured. */
export function savedReport(dir: string): string {
  const file = join(dir, 'results.json');
  const last = JSON.parse(readFileSync(file, 'utf8')) as { machine: Machine };
  return report(dir, last.machine, previousRows(file), true);
}
