/**
 * npm run map-stack -- <route name> < trace.txt
 *
 * Functions ship without source maps (docs/operating/observability.md "Reading stack traces": they would cost every cold
 * start), so a stack trace in the logs points into the minified bundle (`index.mjs:1:48213`).
 * This rebuilds the route's bundle exactly as the stack does (infra/bundling.ts), with a source
 * map beside it, and prints the trace with each bundle position replaced by its source position.
 * Run it on the commit that was deployed.
 */
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildOptions } from '../infra/bundling';
import { routeList } from '../shared/routes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The trace with every `index.mjs:line:column` (or a `chunk-<hash>.mjs` of the same build, or
 * `index.js`) mapped to `source:line:column`.
 */
export async function mapStack(entry: string, trace: string, nodeModules: readonly string[] = []): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'map-stack-'));
  try {
    // 'external' writes the maps without adding a comment, so the code is the deployed code.
    await build({ ...esbuildOptions(nodeModules), entryPoints: [resolve(ROOT, entry)], outdir: dir, sourcemap: 'external', logLevel: 'silent' });
    const maps = new Map<string, SourceMap>();
    const mapOf = (file: string) => {
      const name = file === 'index.js' ? 'index.mjs' : file;
      if (!maps.has(name)) {
        try {
          maps.set(name, new SourceMap(JSON.parse(readFileSync(join(dir, `${name}.map`), 'utf8'))));
        } catch {
          return undefined;
        }
      }
      return maps.get(name);
    };
    return trace.replace(/(?:file:\/\/)?[^\s()]*?((?:index|chunk-[A-Z0-9]+)\.m?js):(\d+):(\d+)/g, (whole, file: string, line: string, column: string) => {
      const hit = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1) as
        | { originalSource?: string; originalLine?: number; originalColumn?: number }
        | undefined;
      if (!hit?.originalSource) return whole;
      const source = relative(ROOT, resolve(dir, hit.originalSource.replace(/^file:\/\//, '')));
      return `${source}:${hit.originalLine! + 1}:${hit.originalColumn! + 1}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const name = process.argv[2];
  const route = name === 'fallback' ? { entry: 'functions/system/fallback.ts', nodeModules: [] } : routeList.find((r) => r.name === name);
  if (!route) {
    console.error(`usage: npm run map-stack -- <route name> < trace.txt\nroute names: fallback, ${routeList.map((r) => r.name).join(', ')}`);
    process.exit(2);
  }
  process.stdout.write(await mapStack(route.entry, readFileSync(0, 'utf8'), route.nodeModules ?? []));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
