import { fileURLToPath } from 'node:url';
/** Bundles like the CDK stack builds them (infra/bundling.ts), written beside node_modules so externals resolve. */
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, writeOpenApiBeside } from '../../infra/bundling';
import { ESBUILD_TARGET } from '../../infra/runtime';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '.out');
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Bundle {
  /** The handler module (`index.mjs`). */
  file: string;
  /** What a cold start loads: index.mjs and the chunks it imports statically. */
  bytes: number;
  /** Every file written (chunks loaded on first use too). */
  totalBytes: number;
  mapBytes?: number;
}

/** The output files index.mjs reaches through static imports (what a cold start reads). */
function loadedAtStart(meta: Metafile): string[] {
  const seen = new Set<string>();
  const walk = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of meta.outputs[out]!.imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) walk(i.path);
  };
  const index = Object.keys(meta.outputs).find((o) => o.endsWith('/index.mjs') || o === 'index.mjs');
  if (index) walk(index);
  return [...seen];
}

/**
 * A function's deployed files in `OUT_DIR/<name>/`. `plain`: one minified file with the SDK as it
 * comes (default credential chain, dynamic imports inlined): the SDK-only yardstick.
 * `sourcemap`: also write the maps, linked from the code, as `sourceMap: true` would.
 */
export async function bundle(name: string, entry: string, external: string[] = [], opts: { sourcemap?: boolean; plain?: boolean } = {}): Promise<Bundle> {
  const outdir = join(OUT_DIR, name);
  rmSync(outdir, { recursive: true, force: true });
  const options = opts.plain
    ? {
        bundle: true,
        minify: true,
        format: 'esm' as const,
        platform: 'node' as const,
        target: ESBUILD_TARGET,
        mainFields: ['module', 'main'],
        external,
        banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" },
        entryNames: 'index',
        outExtension: { '.js': '.mjs' },
      }
    : esbuildOptions(external);
  const out = await build({
    ...options,
    entryPoints: [resolve(ROOT, entry)],
    outdir,
    metafile: true,
    sourcemap: opts.sourcemap ? 'linked' : false,
    logLevel: 'silent',
  });
  if (!opts.plain) writeOpenApiBeside(outdir, out.metafile);
  const files = readdirSync(outdir);
  const size = (f: string) => statSync(resolve(process.cwd(), f)).size;
  return {
    file: join(outdir, 'index.mjs'),
    bytes: loadedAtStart(out.metafile).reduce((a, f) => a + size(f), 0),
    totalBytes: files.filter((f) => f.endsWith('.mjs')).reduce((a, f) => a + statSync(join(outdir, f)).size, 0),
    ...(opts.sourcemap ? { mapBytes: files.filter((f) => f.endsWith('.map')).reduce((a, f) => a + statSync(join(outdir, f)).size, 0) } : {}),
  };
}
