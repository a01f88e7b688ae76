/**
 * The import function's validator is copied beside its bundle from the lockfile's node_modules
 * (infra/node-modules.ts), so `cdk synth` runs no `npm ci`: the copied set must be exactly what
 * Node resolves at run time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyNodeModules, runtimeClosure, type Lockfile } from '../../infra/node-modules';
import { routes } from '../../shared/routes';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile;

describe('node modules beside a bundle', () => {
  it("copies the validator with its whole run-time closure from the project's lockfile", () => {
    const closure = runtimeClosure(lock, routes.oasImport.nodeModules!);
    expect(closure).toContain('node_modules/@seriousme/openapi-schema-validator');
    for (const dep of ['ajv', 'ajv-formats', 'ajv-draft-04', 'yaml', 'fast-uri', 'fast-deep-equal', 'json-schema-traverse', 'require-from-string']) {
      expect(closure, dep).toContain(`node_modules/${dep}`);
    }
    expect(
      closure.filter((p) => lock.packages[p]?.dev),
      'no dev-only package',
    ).toEqual([]);
  });

  it('resolves like Node: a nested copy first, then the parent folders; optional ones may be absent', () => {
    const fake: Lockfile = {
      packages: {
        'node_modules/a': { dependencies: { b: '1' }, optionalDependencies: { gone: '1' } },
        'node_modules/a/node_modules/b': { dependencies: { c: '1' } },
        'node_modules/b': {},
        'node_modules/c': {},
      },
    };
    // a/node_modules/b rides inside a's folder; b resolves c from the top.
    expect(runtimeClosure(fake, ['a'])).toEqual(['node_modules/a', 'node_modules/c']);
    expect(() => runtimeClosure({ packages: { 'node_modules/a': { dependencies: { missing: '1' } } } }, ['a'])).toThrow(/missing .*package-lock/);
  });

  it('copies the closure into the bundle folder as the lockfile installed it', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const out = mkdtempSync(join(tmpdir(), 'bundle-'));
    copyNodeModules(root, ['yaml'], out);
    expect(readdirSync(join(out, 'node_modules'))).toEqual(['yaml']);
    const version = (dir: string) => (JSON.parse(readFileSync(join(dir, 'node_modules/yaml/package.json'), 'utf8')) as { version: string }).version;
    expect(version(out)).toBe(version(root));
    rmSync(out, { recursive: true, force: true });
  });
});
