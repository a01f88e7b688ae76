/**
 * What readable stack traces cost at cold start: each function bundled with and without a linked
 * source map, imported in fresh Node processes without and with `--enable-source-maps`
 * (alternately). `SOURCEMAP_NODE` names another Node binary (e.g. the Lambda runtime's major).
 */
import { execFileSync } from 'node:child_process';
import { routeList } from '../../shared/routes';
import { bundle } from '../lib/bundle';
import { median, round, type Row } from '../lib/stats';

const NODE = process.env.SOURCEMAP_NODE || process.execPath;

/**
 * CPU milliseconds to import the bundle in a fresh process (what a cold start pays); CPU time,
 * not wall time, so other work on a shared machine does not count.
 */
function sample(file: string, flags: string[]): { importMs: number } {
  const script =
    `const c=process.cpuUsage();await import(${JSON.stringify(file)});const ` + `d=process.cpuUsage(c);process.stdout.write(String((d.user+d.system)/1000))`;
  const out = execFileSync(NODE, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1' } });
  return { importMs: Number(out) };
}

/** Both variants sampled alternately, so drift on a shared machine hits both alike. */
function measurePair(plain: string, mapped: string, runs: number) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    const first = i % 2 === 0;
    if (first) a.push(sample(plain, []).importMs);
    b.push(sample(mapped, ['--enable-source-maps']).importMs);
    if (!first) a.push(sample(plain, []).importMs);
  }
  return { without: median(a), withMaps: median(b) };
}

export async function sourceMaps(runs = 9, only?: string[]): Promise<Row[]> {
  const functions = [...new Map(routeList.map((r) => [r.entry, r])).values()].filter((r) => !only || only.includes(r.name));
  const ratios: number[] = [];
  let worst = 0;
  let worstName = '';
  const detail: Record<string, number | string> = { node: execFileSync(NODE, ['-v'], { encoding: 'utf8' }).trim() };
  let plainBytes = 0;
  let mapBytes = 0;
  for (const r of functions) {
    const name = r.entry
      .replace(/^functions\//, '')
      .replace(/\.ts$/, '')
      .replace(/\//g, '-');
    const external = [...(r.nodeModules ?? [])];
    const plain = await bundle(`${name}-plain`, r.entry, external);
    const mapped = await bundle(`${name}-mapped`, r.entry, external, { sourcemap: true });
    const m = measurePair(plain.file, mapped.file, runs);
    const ratio = m.withMaps / m.without;
    ratios.push(ratio);
    plainBytes += plain.bytes;
    mapBytes += mapped.mapBytes ?? 0;
    if (ratio > worst) {
      worst = ratio;
      worstName = name;
    }
    if (r.name === 'sessionsCheck' || r.name === 'oasImport') {
      Object.assign(detail, {
        [`${name}_import_ms`]: round(m.without),
        [`${name}_import_ms_with_maps`]: round(m.withMaps),
        [`${name}_bundle_bytes`]: plain.bytes,
        [`${name}_map_bytes`]: mapped.mapBytes ?? 0,
      });
    }
  }
  Object.assign(detail, { median_ratio: round(median(ratios)), slowest: worstName, all_bundles_bytes: plainBytes, all_maps_bytes: mapBytes });
  return [
    {
      scenario: 'source maps',
      measured: `import CPU time with map and --enable-source-maps / without (worst of ${functions.length} functions, median of ${runs} each, alternating)`,
      value: round(worst),
      target: '<= 1.1',
      pass: worst <= 1.1,
      detail,
    },
  ];
}
