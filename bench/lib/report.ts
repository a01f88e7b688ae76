/**
 * BENCHMARKS.md from the rows of bench/results.json: the summary table, then a short section per
 * scenario, then bench/analysis.md. Apart from bench/run.ts so that a test can render it without
 * starting a bench.
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

/**
 * Per scenario, what its rows were measured from: when, by which command, and each figure of its
 * details as a row of a small table (a scenario's rows share most of them).
 */
function detailSections(rows: StoredRow[]): string[] {
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  return scenarios.flatMap((scenario) => {
    const mine = rows.filter((r) => r.scenario === scenario);
    const figures = new Map<string, string>();
    for (const r of mine) for (const [k, v] of Object.entries(r.detail)) if (!figures.has(k)) figures.set(k, String(v).replace(/\|/g, '\\|'));
    const runs = [...new Set(mine.map((r) => `${r.measured_at.slice(0, 10)} by \`${r.command}\``))].join('; ');
    return [
      `### ${scenario}`,
      '',
      `Measured ${runs}.`,
      '',
      '| figure | value |',
      '|---|---|',
      ...[...figures].map(([k, v]) => `| ${k.replace(/_/g, ' ')} | ${v} |`),
      '',
    ];
  });
}

/** The summary: one row per judged figure. */
export function summaryTable(rows: Row[]): string {
  const lines = ['| scenario | measured | value | target | result |', '|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.scenario} | ${r.measured} | ${r.value} | ${r.target} | ${r.pass ? 'pass' : '**miss**'} |`);
  return lines.join('\n');
}

/** BENCHMARKS.md from the rows, with bench/analysis.md (in `dir`) after the sections. */
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
    ...detailSections(all),
    readFileSync(join(dir, 'analysis.md'), 'utf8'),
  ].join('\n');
}

/** BENCHMARKS.md again from the last results in `dir` (bench/results.json), nothing measured. */
export function savedReport(dir: string): string {
  const file = join(dir, 'results.json');
  const last = JSON.parse(readFileSync(file, 'utf8')) as { machine: Machine };
  return report(dir, last.machine, previousRows(file), true);
}
