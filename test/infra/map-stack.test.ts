/**
 * Reading stack traces without shipping source maps: the bundle scripts/map-stack.ts rebuilds is
 * the one the stack deploys, so a trace from the deployed function maps to the sources.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Architecture, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { esbuildOptions, functionCode } from '../../infra/bundling';
import { mapStack } from '../../scripts/map-stack';

const ROOT = process.cwd();

describe('map-stack', () => {
  it('maps a trace from a minified bundle back to the source lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'throws-'));
    const outfile = join(dir, 'index.mjs');
    await build({ ...esbuildOptions(), entryPoints: [join(ROOT, 'test/infra/fixtures/throws.ts')], outdir: dir, logLevel: 'silent' });
    const { handler } = (await import(pathToFileURL(outfile).href)) as { handler: () => never };
    let trace = '';
    try {
      handler();
    } catch (e) {
      trace = (e as Error).stack!;
    }
    expect(trace).toMatch(/index\.mjs:\d+:\d+/);
    const mapped = await mapStack('test/infra/fixtures/throws.ts', trace);
    expect(mapped).toContain('deliberate failure');
    expect(mapped).toMatch(/test\/infra\/fixtures\/throws\.ts:4:\d+/);
    expect(mapped).not.toMatch(/index\.mjs:\d+:\d+/);
  });

  it('rebuilds exactly the code the stack deploys', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'cdk-bundle-'));
    const app = new App({ outdir });
    const stack = new Stack(app, 'Bundle');
    const entry = 'functions/sessions/check.ts';
    new LambdaFunction(stack, 'Fn', { code: functionCode(entry), handler: 'index.handler', runtime: Runtime.NODEJS_22_X, architecture: Architecture.ARM_64 });
    app.synth();
    const asset = readdirSync(outdir).find((d) => d.startsWith('asset.'))!;
    const deployedFiles = readdirSync(join(outdir, asset))
      .filter((f) => f.endsWith('.mjs'))
      .sort();
    // The handler and its chunks (the Secrets Manager client among those loaded on first use).
    expect(deployedFiles).toContain('index.mjs');
    expect(deployedFiles.length).toBeGreaterThan(1);
    const dir = mkdtempSync(join(tmpdir(), 'rebuilt-'));
    await build({ ...esbuildOptions(), entryPoints: [join(ROOT, entry)], outdir: dir, logLevel: 'silent' });
    expect(readdirSync(dir).sort()).toEqual(deployedFiles);
    for (const f of deployedFiles) expect(readFileSync(join(dir, f), 'utf8') === readFileSync(join(outdir, asset, f), 'utf8'), f).toBe(true);
  }, 120_000);
});
