/**
 * The Node line and the install (docs/using/first-steps.md, docs/developing/dependencies.md): `.nvmrc` is the
 * one place that names the line the tools and CI run, `engines` admits it and the line these tests
 * run on, and every dependency with an install script is approved in `allowScripts`, so `npm ci`
 * asks nothing and a new dependency with a script fails here instead.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lockfiles = ['package-lock.json', 'infra/local/lambda-node/package-lock.json'];

/** Whether a version meets `engines.node`, written as `^X.Y.Z` and `>=X` parts joined by `||` (the forms used here). */
function admits(range: string, version: string): boolean {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  return range.split('||').some((part) => {
    const caret = /^\^(\d+)\.(\d+)\.\d+$/.exec(part.trim());
    if (caret) return major === Number(caret[1]) && minor >= Number(caret[2]);
    const atLeast = /^>=(\d+)$/.exec(part.trim());
    if (atLeast) return major >= Number(atLeast[1]);
    throw new Error(`engines.node: unread part "${part}"`);
  });
}

describe('the Node line', () => {
  it('.nvmrc names one major, which engines admits, as it admits the Node running these tests', () => {
    const nvmrc = readFileSync('.nvmrc', 'utf8');
    expect(nvmrc).toMatch(/^\d+\n$/);
    expect(admits(pkg.engines.node, `${nvmrc.trim()}.0.0`)).toBe(true);
    expect(admits(pkg.engines.node, process.version), process.version).toBe(true);
  });

  it('reads engines as npm does for the lines it names', () => {
    expect(['20.19.0', '22.13.0', '24.0.0', '26.1.0'].filter((v) => admits(pkg.engines.node, v))).toEqual(['20.19.0', '22.13.0', '24.0.0', '26.1.0']);
    expect(['18.20.0', '20.18.1', '21.7.0', '22.12.0', '23.11.0'].filter((v) => admits(pkg.engines.node, v))).toEqual([]);
  });
});

it('approves by name exactly the dependencies that have install scripts (allowScripts)', () => {
  const scripted = lockfiles.flatMap((f) => {
    const lock = JSON.parse(readFileSync(f, 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    // The project's own entry ('') is its postinstall, which npm always runs.
    return Object.entries(lock.packages).flatMap(([path, p]) => (path && p.hasInstallScript ? [path.replace(/^.*node_modules\//, '')] : []));
  });
  expect(Object.entries(pkg.allowScripts ?? {}).sort()).toEqual([...new Set(scripted)].sort().map((name) => [name, true]));
});
