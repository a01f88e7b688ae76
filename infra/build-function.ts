/**
 * Writes one function's deployed files: `node --import tsx infra/build-function.ts <entry>
 * <outdir> [node module...]` (the stack's afterBundling hook, infra/bundling.ts). It replaces the
 * single file NodejsFunction's own pass wrote by the split build of esbuildOptions().
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { esbuildOptions } from './bundling';

const [entry, outdir, ...nodeModules] = process.argv.slice(2);
if (!entry || !outdir) {
  console.error('usage: node --import tsx infra/build-function.ts <entry> <outdir> [node module...]');
  process.exit(2);
}
rmSync(join(outdir, 'index.mjs'), { force: true });
await build({ ...esbuildOptions(nodeModules), entryPoints: [resolve(entry)], outdir, logLevel: 'warning' });
