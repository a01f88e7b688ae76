import { build } from 'esbuild';
import { statSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
const entries = process.argv.slice(2);
for (const variant of ['now', 'alias', 'alias+split']) {
  for (const e of entries) {
    const outdir = `/tmp/perfcs/out-${variant}-${e.replace(/\W/g,'_')}`;
    rmSync(outdir, { recursive: true, force: true }); mkdirSync(outdir);
    const meta = await build({ entryPoints: { index: e }, outdir, bundle: true, minify: true, format: 'esm', platform: 'node', target: 'node20', mainFields: ['module','main'],
      banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" }, outExtension: { '.js': '.mjs' },
      splitting: variant.includes('split'), chunkNames: 'chunk-[hash]', metafile: true, logLevel: 'silent',
      external: e.includes('oas-import') ? ['@seriousme/openapi-schema-validator'] : [],
      alias: variant.includes('alias') ? { '@aws-sdk/credential-provider-node': '/work/wt/perf/.tmpcs/creds.ts' } : {} });
    const files = readdirSync(outdir);
    const total = files.reduce((a, f) => a + statSync(`${outdir}/${f}`).size, 0);
    // bytes loaded at start: index + its static imports
    const outs = meta.metafile.outputs; const seen = new Set(); const walk = (k) => { if (seen.has(k)) return; seen.add(k); for (const i of outs[k].imports) if (i.kind === 'import-statement' && outs[i.path]) walk(i.path); };
    const idx = Object.keys(outs).find((k) => k.endsWith('index.mjs')); walk(idx);
    const start = [...seen].reduce((a, k) => a + outs[k].bytes, 0);
    const yaml = Object.keys(meta.metafile.inputs).some((i) => i.includes('node_modules/yaml/'));
    console.log(variant.padEnd(12), e.padEnd(34), 'start', start, 'total', total, 'files', files.length, yaml ? 'YAML' : '');
  }
}
