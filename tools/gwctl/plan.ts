/**
 * The plan: what the folder wants against what the organisation holds, per object (create, update
 * with each changed field's path, delete), with the version each object had when the plan read it
 * (the sync's If-Match) and a digest of it (for kinds the service sends no version for). Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { withFileReferences } from './credentials';
import { ADAPTERS } from './kinds';
import type { Live } from './kinds/kind';
import { canonical, isObject, KINDS, type ConfigFile, type ConfigObject, type Json, type Kind } from './model';
import type { OrgState } from './state';

export const PLAN_FORMAT = 'gwctl-plan/v1';

export interface FieldChange {
  path: string;
  /** Absent: the member was not there. */
  old?: Json;
  new?: Json;
}

export interface Change {
  action: 'create' | 'update' | 'delete';
  kind: Kind;
  key: string;
  /** The folder's file (create, update). */
  file?: string;
  /** The version the plan read (update, delete). */
  etag?: string;
  /** Digest of the object as the plan read it (update, delete). */
  read?: string;
  fields?: FieldChange[];
}

export interface Plan {
  format: typeof PLAN_FORMAT;
  org: string;
  /** Digest of the folder the plan was made from: a sync of the plan refuses another folder. */
  folder: string;
  select_tags: string[];
  prune: boolean;
  changes: Change[];
  unchanged: number;
  /** Objects of the organisation the folder does not have, kept because --prune was not given. */
  unmanaged: Array<{ kind: Kind; key: string }>;
}

export const digest = (v: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(canonical(v as Json)))
    .digest('hex');

export function folderDigest(files: ConfigFile[]): string {
  return digest([...files].sort((a, b) => a.path.localeCompare(b.path)).map((f) => [f.path, f.object]));
}

/** Creates and updates in reference order (hooks ... OAuth clients; a base API before its versions); deletes the other way round. */
const rank = (o: ConfigObject) => KINDS.indexOf(o.kind) * 2 + (o.version_of ? 1 : 0);

/**
 * The objects --select-tag selects: those whose tags hold every selected tag; an OAuth client goes
 * with its API; kinds without tags (hooks, templates) are left out of a selected run.
 */
function selector(selectTags: string[], apisSelected: (apiId: string) => boolean) {
  return (o: ConfigObject) => {
    if (!selectTags.length) return true;
    if (o.kind === 'oauth-client') return apisSelected(String(o.spec.api_id));
    const tags = ADAPTERS[o.kind].tagsOf(o);
    return tags !== undefined && selectTags.every((t) => tags.includes(t));
  };
}

/**
 * What a read can be compared with: its credentials (masked: the service never shows a hook's,
 * and gwctl masks the rest as it reads) take the folder's references where the folder has one in
 * the same place, so a plan compares where credentials are, never their values.
 */
export function comparable(live: ConfigObject, desired: ConfigObject | undefined): ConfigObject {
  return desired ? withFileReferences(live, desired) : structuredClone(live);
}

/** The paths where two values differ, old → new (arrays by index). */
export function fieldChanges(old: Json | undefined, now: Json | undefined, path = ''): FieldChange[] {
  if (isObject(old) && isObject(now)) {
    const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])].sort();
    return keys.flatMap((k) => fieldChanges(old[k], now[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(old) && Array.isArray(now)) {
    return Array.from({ length: Math.max(old.length, now.length) }, (_, i) => fieldChanges(old[i], now[i], `${path}[${i}]`)).flat();
  }
  if (JSON.stringify(old) === JSON.stringify(now)) return [];
  return [{ path, ...(old === undefined ? {} : { old }), ...(now === undefined ? {} : { new: now }) }];
}

export function makePlan(org: string, files: ConfigFile[], state: OrgState, opts: { selectTags: string[]; prune: boolean }): Plan {
  const lives = [...state.values()].flat();
  const tagged = selector(opts.selectTags, () => false);
  const apiSelected = (apiId: string) => {
    const o =
      files.find((f) => f.object.kind === 'api' && ADAPTERS.api.keyOf(f.object) === apiId)?.object ??
      lives.find((l) => l.object.kind === 'api' && l.key === apiId)?.object;
    return o !== undefined && tagged(o);
  };
  const selected = selector(opts.selectTags, apiSelected);
  const liveByKey = new Map<string, Live>(lives.filter((l) => selected(l.object)).map((l) => [`${l.object.kind}\n${l.key}`, l]));
  const wanted = files.filter((f) => selected(f.object));
  const changes: Array<Change & { rank: number }> = [];
  let unchanged = 0;
  for (const f of wanted) {
    const key = ADAPTERS[f.object.kind].keyOf(f.object);
    const live = liveByKey.get(`${f.object.kind}\n${key}`);
    liveByKey.delete(`${f.object.kind}\n${key}`);
    if (!live) {
      changes.push({ action: 'create', kind: f.object.kind, key, file: f.path, rank: rank(f.object) });
      continue;
    }
    const fields = fieldChanges(comparable(live.object, f.object) as unknown as Json, f.object as unknown as Json);
    if (!fields.length) unchanged++;
    else changes.push({ action: 'update', kind: f.object.kind, key, file: f.path, ...etagOf(live), read: digest(live.object), fields, rank: rank(f.object) });
  }
  const unmanaged: Plan['unmanaged'] = [];
  for (const live of liveByKey.values()) {
    if (opts.prune)
      changes.push({ action: 'delete', kind: live.object.kind, key: live.key, ...etagOf(live), read: digest(live.object), rank: -rank(live.object) });
    else unmanaged.push({ kind: live.object.kind, key: live.key });
  }
  const order = (c: Change & { rank: number }) => (c.action === 'delete' ? 100 : 0) + c.rank;
  changes.sort((x, y) => order(x) - order(y) || x.key.localeCompare(y.key));
  return {
    format: PLAN_FORMAT,
    org,
    folder: folderDigest(files),
    select_tags: opts.selectTags,
    prune: opts.prune,
    changes: changes.map(({ rank: _, ...c }) => c),
    unchanged,
    unmanaged,
  };
}

const etagOf = (l: Live) => (l.etag ? { etag: l.etag } : {});

/** The plan as a person reads it. */
export function planText(plan: Plan): string[] {
  const sign = { create: '+', update: '~', delete: '-' } as const;
  const lines: string[] = [];
  for (const c of plan.changes) {
    lines.push(`${sign[c.action]} ${c.action} ${c.kind} ${c.key}${c.file ? ` (${c.file})` : ''}`);
    for (const f of c.fields ?? [])
      lines.push(`    ${f.path}: ${'old' in f ? JSON.stringify(f.old) : '(absent)'} → ${'new' in f ? JSON.stringify(f.new) : '(absent)'}`);
  }
  const n = (a: Change['action']) => plan.changes.filter((c) => c.action === a).length;
  lines.push(`Plan: ${n('create')} to create, ${n('update')} to update, ${n('delete')} to delete; ${plan.unchanged} unchanged.`);
  if (plan.unmanaged.length) {
    lines.push(
      `${plan.unmanaged.length} object(s) of the organisation are not in the folder and are kept (--prune deletes them): ` +
        `${plan.unmanaged.map((u) => `${u.kind} ${u.key}`).join(', ')}`,
    );
  }
  return lines;
}
