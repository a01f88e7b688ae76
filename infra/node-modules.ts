/**
 * Packages a function keeps beside its bundle (route `nodeModules`) are copied from the project's
 * own node_modules, which `npm ci` installed from the lockfile, instead of running `npm ci` inside
 * the bundle folder: synth then needs neither the registry nor a warm npm cache.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockedPackage {
  version?: string;
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
export interface Lockfile {
  packages: Record<string, LockedPackage>;
}

/** The folder that holds `path`'s own node_modules lookups: node_modules/a/node_modules/b -> node_modules/a. */
function parentOf(path: string): string {
  const i = path.lastIndexOf('node_modules/');
  return i <= 0 ? '' : path.slice(0, i - 1);
}

/**
 * The lockfile paths (`node_modules/...`) of `names` and everything they need at run time, found
 * the way Node resolves them (nested folder first, then each parent). Folders nested inside
 * another chosen folder are left out: copying the outer one brings them.
 */
export function runtimeClosure(lock: Lockfile, names: readonly string[]): string[] {
  const chosen = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    for (let dir = from; ; dir = parentOf(dir)) {
      const path = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      const pkg = lock.packages[path];
      if (pkg) {
        if (chosen.has(path)) return;
        chosen.add(path);
        for (const dep of Object.keys({ ...pkg.dependencies })) visit(dep, path, false);
        for (const dep of Object.keys({ ...pkg.optionalDependencies })) visit(dep, path, true);
        for (const dep of Object.keys({ ...pkg.peerDependencies })) visit(dep, path, Boolean(pkg.peerDependenciesMeta?.[dep]?.optional));
        return;
      }
      if (!dir) {
        if (optional) return;
        throw new Error(`${name} (needed by ${from || 'the project'}) is not in package-lock.json`);
      }
    }
  };
  for (const name of names) visit(name, '', false);
  const all = [...chosen].sort();
  return all.filter((p) => !all.some((outer) => outer !== p && p.startsWith(`${outer}/`)));
}

/** Copies the closure of `names` from the project's node_modules into the bundle folder `outputDir`. */
export function copyNodeModules(projectRoot: string, names: readonly string[], outputDir: string): void {
  if (!names.length) return;
  const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as Lockfile;
  for (const p of runtimeClosure(lock, names)) cpSync(join(projectRoot, p), join(outputDir, p), { recursive: true, verbatimSymlinks: true });
}
