import { fileURLToPath } from 'node:url';
/** Minified ESM bundles like the CDK stack builds, written beside node_modules so externals resolve. */
import { build } from 'esbuild';
import { ESBUILD_TARGET } from '../../infra/runtime';
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '.out');
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `sourcemap`: also write `<name>.mjs.map`, linked from the bundle, as `sourceMap: true` would. */
export async function bundle(name: string, entry: string, external: string[] = [], opts: { sourcemap?: boolean } = {}): Promise<{ file: string; bytes: number; mapBytes?: number }> {
  const file = join(OUT_DIR, `${name}.mjs`);
  await build({
    entryPoints: [resolve(ROOT, entry)],
    outfile: file,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: ESBUILD_TARGET,
    mainFields: ['module', 'main'],
    external,
    sourcemap: opts.sourcemap ? 'linked' : false,
    banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return { file, bytes: statSync(file).size, ...(opts.sourcemap ? { mapBytes: statSync(`${file}.map`).size } : {}) };
}
