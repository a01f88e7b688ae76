/**
 * The OpenAPI validator reads its JSON schemas from its package directory at run time, so the
 * import function only works in the cloud if that package is installed beside the bundle
 * (route `nodeModules`: infra/stack.ts keeps it external and copies it beside the bundle). This bundles the
 * validation code the way the stack does, next to a node_modules folder, and runs it.
 */
import { build } from 'esbuild';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function bundleValidation(external: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'import-bundle-'));
  dirs.push(dir);
  // Stands in for the node_modules the cloud build installs beside index.mjs.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const outfile = join(dir, 'index.mjs');
  await build({
    stdin: { contents: `export { validateOpenApi } from ${JSON.stringify(join(ROOT, 'shared/domain/oas-parse.ts'))};`, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external,
    logLevel: 'silent',
    banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

describe('import function bundle', () => {
  it('declares the validator as a node module of the import route', () => {
    expect(routes.oasImport.nodeModules).toContain('@seriousme/openapi-schema-validator');
  });

  it('validates from the bundle when the route node modules stay outside it', async () => {
    const file = await bundleValidation(routes.oasImport.nodeModules);
    const { validateOpenApi } = (await import(pathToFileURL(file).href)) as typeof import('../../shared/domain/oas-parse');
    await expect(validateOpenApi({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} })).resolves.toBeUndefined();
    await expect(validateOpenApi({ openapi: '3.0.3', info: { title: 't' }, paths: {} })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('version'),
    });
  });

  it('fails when the validator is bundled in (why the route needs nodeModules)', async () => {
    const file = await bundleValidation([]);
    const { validateOpenApi } = (await import(pathToFileURL(file).href)) as typeof import('../../shared/domain/oas-parse');
    await expect(validateOpenApi({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} })).rejects.toThrow(/ENOENT/);
  });
});
