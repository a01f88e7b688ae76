/**
 * A configuration folder on disk: the index (`gwctl.yaml`: format version, the environment
 * references the files hold, a note on keys) and one YAML file per object under its kind's folder.
 * Written deterministically (members sorted, no line folding), so an unchanged organisation dumps
 * byte-identical files and a change is a small Git diff.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { ADAPTERS } from './kinds';
import { canonical, FORMAT, INDEX_FILE, isObject, KINDS, type ConfigFile, type ConfigObject, type Json, type Kind } from './model';
import { envRefsOf } from './refs';

const KEYS_NOTE = 'API keys are credentials, not configuration: gwctl neither dumps nor syncs them.';

/** A problem with a file, at a path inside it (empty: the file as a whole). */
export interface Problem {
  file: string;
  path: string;
  message: string;
}

export const toYaml = (v: Json) => stringify(canonical(v), { lineWidth: 0, minContentWidth: 0 });

/** The index of a folder holding `files`. */
function indexOf(files: ConfigFile[]): Json {
  const env = new Map<string, string[]>();
  for (const f of files) for (const r of envRefsOf(f.object as unknown as Json)) env.set(r.name, [...(env.get(r.name) ?? []), `${f.path}#${r.path}`]);
  return {
    format: FORMAT,
    keys: KEYS_NOTE,
    environment: [...env.keys()].sort().map((name) => ({ name, used_by: env.get(name)!.sort() })),
  };
}

/** Replaces the folder's object files and index by these (other files in it are left alone). */
export function writeFolder(dir: string, files: ConfigFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const kind of KINDS) rmSync(join(dir, ADAPTERS[kind].dir), { recursive: true, force: true });
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const path = join(dir, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, toYaml(f.object as unknown as Json));
  }
  writeFileSync(join(dir, INDEX_FILE), toYaml(indexOf(files)));
}

const yamlFiles = (root: string): string[] =>
  !existsSync(root)
    ? []
    : readdirSync(root)
        .sort()
        .flatMap((name) => {
          const p = join(root, name);
          return statSync(p).isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(name) ? [p] : [];
        });

/** The folder's objects, and the problems that kept any file out (syntax, shape, kind, place). */
export function readFolder(dir: string): { files: ConfigFile[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const files: ConfigFile[] = [];
  if (!existsSync(join(dir, INDEX_FILE))) problems.push({ file: INDEX_FILE, path: '', message: `missing: not a gwctl folder (run gwctl dump to start one)` });
  else {
    const index = parseDocument(readFileSync(join(dir, INDEX_FILE), 'utf8')).toJS() as unknown;
    if (!isObject(index) || index.format !== FORMAT) problems.push({ file: INDEX_FILE, path: 'format', message: `must be ${FORMAT}` });
  }
  for (const kind of KINDS) {
    for (const abs of yamlFiles(join(dir, ADAPTERS[kind].dir))) {
      const file = relative(dir, abs).split(sep).join('/');
      const doc = parseDocument(readFileSync(abs, 'utf8'), { uniqueKeys: true, prettyErrors: false });
      if (doc.errors.length) {
        for (const e of doc.errors) problems.push({ file, path: '', message: `YAML: ${e.message.split('\n')[0]}` });
        continue;
      }
      const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
      const shape = shapeProblem(value, kind);
      if (shape) {
        problems.push({ file, ...shape });
        continue;
      }
      files.push({ path: file, object: value as ConfigObject });
    }
  }
  return { files, problems };
}

function shapeProblem(v: unknown, kind: Kind): { path: string; message: string } | undefined {
  if (!isObject(v)) return { path: '', message: 'must be a mapping with kind and spec' };
  for (const k of Object.keys(v))
    if (!['kind', 'spec', 'version_of'].includes(k)) return { path: k, message: 'unknown member (a file holds kind, spec and, for API versions, version_of)' };
  if (v.kind !== kind) return { path: 'kind', message: `must be ${kind} in the ${ADAPTERS[kind].dir}/ folder` };
  if (!isObject(v.spec)) return { path: 'spec', message: 'required: a mapping, the body of the object' };
  if (v.version_of !== undefined) {
    if (kind !== 'api') return { path: 'version_of', message: 'only APIs are versions' };
    const vo = v.version_of;
    if (!isObject(vo) || typeof vo.base !== 'string' || typeof vo.name !== 'string' || Object.keys(vo).length !== 2) {
      return { path: 'version_of', message: 'must be {base: <api_id of the base API>, name: <version name>}' };
    }
  }
  return undefined;
}
