/**
 * The folder's checks: each file's spec against its schema in the service's document, its
 * credentials and environment references (credentials.ts: references only where credentials are,
 * none in clear, none to gwctl's own), and the references across the folder (event handlers →
 * hooks, policies → APIs, versions → base APIs, OAuth clients → APIs and policies, templates'
 * handlers → hooks), each problem with its file and the path inside it. Offline; `known` adds the organisation's own objects (validate --org), so a
 * folder may name what it does not hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { credentialProblems } from './credentials';
import { ADAPTERS } from './kinds';
import type { Problem } from './folder';
import { HOOK_REF, INDEX_FILE, isObject, type ConfigFile, type Json, type Kind } from './model';
import { envRefsOf, hookIdsOf } from './refs';
import { schemaProblems } from './schemas';

/** What the organisation already holds, by kind: keys as files name them (hooks: names and ids). */
export type Known = Map<Kind, Set<string>>;

/** A placeholder of the shape the service gives hook ids, so a reference checks like an id. */
const HOOK_ID_SHAPE = '000000000000000000000000';

export function validateFolder(dir: string, files: ConfigFile[], known: Known = new Map()): Problem[] {
  const problems: Problem[] = [];
  const add = (file: string, path: string, message: string) => problems.push({ file, path, message });
  const keys = new Map<Kind, Map<string, string>>();
  for (const f of files) {
    const kind = f.object.kind;
    const key = ADAPTERS[kind].keyOf(f.object);
    const seen = keys.get(kind) ?? new Map<string, string>();
    keys.set(kind, seen);
    if (!key || key === '/') add(f.path, 'spec', `names no ${kind === 'hook' ? 'name' : 'id'}`);
    else if (seen.has(key)) add(f.path, 'spec', `${kind} ${key} is also in ${seen.get(key)}`);
    else seen.set(key, f.path);
  }
  const has = (kind: Kind, key: string) => keys.get(kind)?.has(key) || known.get(kind)?.has(key) === true;
  const where = `in neither the folder${known.size ? ' nor the organisation' : ''}`;

  for (const f of files) {
    const o = f.object;
    // Schema: hook references checked as the ids they become.
    const spec = structuredClone(o.spec);
    const refs =
      o.kind === 'api'
        ? hookIdsOf(o.spec)
        : o.kind === 'template' && isObject(o.spec.data)
          ? hookIdsOf(o.spec.data).map((r) => ({ ...r, path: `data.${r.path}` }))
          : [];
    for (const r of refs) {
      const m = HOOK_REF.exec(r.id);
      const name = m ? m[1]! : r.id;
      if (!has('hook', name)) add(f.path, `spec.${r.path}`, `names the webhook ${JSON.stringify(name)}, ${where}`);
    }
    const placeholders = JSON.parse(JSON.stringify(spec).replace(/\$\{hook:[^}"]*\}/g, HOOK_ID_SHAPE)) as Json;
    for (const p of schemaProblems(o, placeholders)) add(f.path, p.path, p.message);

    for (const p of credentialProblems(o)) add(f.path, p.path, p.message);
    if (o.kind === 'api' && o.version_of) {
      const base = o.version_of.base;
      if (base === ADAPTERS.api.keyOf(o)) add(f.path, 'version_of.base', 'an API cannot be a version of itself');
      else if (!has('api', base)) add(f.path, 'version_of.base', `names the base API ${JSON.stringify(base)}, ${where}`);
      else {
        const baseFile = files.find((x) => x.object.kind === 'api' && ADAPTERS.api.keyOf(x.object) === base);
        if (baseFile && !isObject(baseFile.object.spec['x-gw-api-gateway']))
          add(f.path, 'version_of.base', `the base API ${base} is classic; only OAS APIs have versions`);
        if (baseFile?.object.version_of) add(f.path, 'version_of.base', `the base API ${base} is itself a version`);
      }
      if (!isObject(o.spec['x-gw-api-gateway'])) add(f.path, 'version_of', 'only OAS APIs can be versions');
    }
    if (o.kind === 'policy' && isObject(o.spec.access_rights)) {
      for (const api of Object.keys(o.spec.access_rights))
        if (!has('api', api)) add(f.path, `spec.access_rights.${api}`, `grants the API ${JSON.stringify(api)}, ${where}`);
    }
    if (o.kind === 'oauth-client') {
      const api = String(o.spec.api_id ?? '');
      const policy = String(o.spec.policy_id ?? '');
      if (api && !has('api', api)) add(f.path, 'spec.api_id', `names the API ${JSON.stringify(api)}, ${where}`);
      if (policy && !has('policy', policy)) add(f.path, 'spec.policy_id', `names the policy ${JSON.stringify(policy)}, ${where}`);
      const pf = files.find((x) => x.object.kind === 'policy' && ADAPTERS.policy.keyOf(x.object) === policy);
      const rights = pf?.object.spec.access_rights;
      if (pf && api && !(isObject(rights) && api in rights)) add(f.path, 'spec.policy_id', `the policy ${policy} (${pf.path}) does not grant the API ${api}`);
    }
  }
  // Version names are unique per base.
  const names = new Map<string, string>();
  for (const f of files) {
    const v = f.object.version_of;
    if (!v) continue;
    const k = `${v.base}\n${v.name}`;
    if (names.has(k)) add(f.path, 'version_of.name', `the base ${v.base} already has a version ${v.name} (${names.get(k)})`);
    names.set(k, f.path);
  }
  problems.push(...indexProblems(dir, files));
  return problems;
}

/** Every `${env:NAME}` is listed in the index, so CI knows what to provide. */
function indexProblems(dir: string, files: ConfigFile[]): Problem[] {
  let listed = new Set<string>();
  try {
    const index = parseDocument(readFileSync(join(dir, INDEX_FILE), 'utf8')).toJS() as { environment?: Array<{ name?: string }> };
    listed = new Set((index.environment ?? []).map((e) => String(e.name)));
  } catch {
    return []; // readFolder reported the index already.
  }
  return files.flatMap((f) =>
    envRefsOf(f.object as unknown as Json)
      .filter((r) => !listed.has(r.name))
      .map((r) => ({ file: f.path, path: r.path, message: `\${env:${r.name}} is not listed under environment in ${INDEX_FILE}` })),
  );
}
