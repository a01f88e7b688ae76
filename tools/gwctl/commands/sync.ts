/**
 * gwctl sync: applies the plan in reference order. Updates and deletes carry If-Match with the
 * version the plan read, so an object another writer changed since is drift: left as that writer
 * left it, reported, and the exit code is 1. Creates carry an Idempotency-Key derived from the plan
 * (organisation, object, body), so a retried create makes nothing twice. A step that fails stops
 * the sync; what was applied and what was not are listed, and running it again converges (each run
 * plans from what the organisation holds then).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { GwctlError, HttpError } from '../client';
import { masked } from '../credentials';
import { ADAPTERS } from '../kinds';
import type { Ctx, Live } from '../kinds/kind';
import { createdSecrets } from '../kinds/oauth-clients';
import { HOOK_REF, hookRef, type ConfigObject } from '../model';
import { comparable, digest, folderDigest, PLAN_FORMAT, planText, type Change, type Plan } from '../plan';
import { resolveEnv } from '../refs';
import { rewriteHookRefs } from '../state';
import { planFor, type PlanOptions } from './diff';
import type { Io } from './io';

export interface SyncOptions extends PlanOptions {
  plan: string | undefined;
  dryRun: boolean;
  secretsFile: string | undefined;
}

type Outcome = 'applied' | 'in place' | 'drift' | 'failed' | 'not applied';

export async function sync(opts: SyncOptions, io: Io): Promise<number> {
  createdSecrets.length = 0;
  const fresh = await planFor(opts, io);
  const { ctx, files } = fresh;
  let plan: Plan = fresh.plan;
  if (opts.plan) {
    plan = JSON.parse(readFileSync(opts.plan, 'utf8')) as Plan;
    if (plan.format !== PLAN_FORMAT) throw new GwctlError(`${opts.plan} is not a gwctl plan`);
    if (plan.org !== ctx.org) throw new GwctlError(`${opts.plan} was made for organisation ${plan.org}, not ${ctx.org}`);
    if (plan.folder !== folderDigest(files)) throw new GwctlError(`${opts.dir} changed since ${opts.plan} was made: run gwctl diff again`);
  }
  if (opts.dryRun) {
    for (const l of planText(plan)) io.out(l);
    return 0;
  }
  const fileOf = new Map(files.map((f) => [f.path, f]));
  // Every environment reference the writes need, before the first write.
  const missing = new Set<string>();
  const resolved = new Map<string, ConfigObject>();
  for (const c of plan.changes) {
    const f = c.file ? fileOf.get(c.file) : undefined;
    if (c.action !== 'delete' && !f) throw new GwctlError(`the plan names ${c.file}, which the folder does not have`);
    if (f) resolved.set(f.path, resolveEnv(f.object as never, io.env, missing));
  }
  if (missing.size) throw new GwctlError(`environment variables not set: ${[...missing].sort().join(', ')} (gwctl.yaml lists what the folder needs)`);

  const now = new Map([...fresh.state.values()].flat().map((l) => [`${l.object.kind}\n${l.key}`, l]));
  const results: Array<{ change: Change; outcome: Outcome; why?: string }> = [];
  let stopped = false;
  const basesWeChanged = new Set<string>();
  for (const change of plan.changes) {
    if (stopped) {
      results.push({ change, outcome: 'not applied' });
      continue;
    }
    try {
      const live = now.get(`${change.kind}\n${change.key}`);
      if (live && basesWeChanged.has(change.key)) await ownVersionFor(ctx, change, live);
      const r = await apply(ctx, change, live, change.file ? fileOf.get(change.file)?.object : undefined, change.file ? resolved.get(change.file) : undefined);
      results.push({ change, ...r });
      // Deleting a version changes its base's version list (and version): our own write, not drift.
      const base = live?.object.version_of?.base;
      if (r.outcome === 'applied' && change.action === 'delete' && base) basesWeChanged.add(base);
    } catch (e) {
      // A refused step, or the network (the write may or may not have been made: the next run finds out).
      if (!(e instanceof GwctlError) && !(e instanceof TypeError)) throw e;
      results.push({ change, outcome: 'failed', why: e instanceof TypeError ? `network: ${e.message}` : e.message });
      stopped = true;
    }
    const last = results[results.length - 1]!;
    io.out(`${last.outcome}: ${change.action} ${change.kind} ${change.key}${last.why ? ` (${last.why})` : ''}`);
  }
  if (opts.secretsFile && createdSecrets.length) writeFileSync(opts.secretsFile, `${JSON.stringify(createdSecrets, null, 2)}\n`, { mode: 0o600 });
  else if (createdSecrets.length)
    io.err(`${createdSecrets.length} OAuth client(s) created: their secrets were shown once and not kept (--secrets-file keeps them)`);

  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  io.out(
    `Sync: ${count('applied')} applied, ${count('in place')} already in place, ${count('drift')} drift, ${count('failed')} failed, ${count('not applied')} ` +
      `not applied.`,
  );
  if (count('drift')) io.err('drift: objects changed by another writer since the plan were left as they are; review them, then diff and sync again');
  if (count('failed') || count('not applied'))
    io.err(
      'the sync stopped at a failed step: the steps after it were not applied; fix the cause and run sync again (it plans from what is there and converges)',
    );
  return count('drift') || count('failed') || count('not applied') ? 1 : 0;
}

/**
 * A base whose version this run deleted has a newer version than the plan read. When it is, apart
 * from its version list (which files leave out), what the plan read, the newer version is ours to
 * write over; otherwise the plan's stays and the write is drift.
 */
async function ownVersionFor(ctx: Ctx, change: Change, live: Live): Promise<void> {
  const fresh = (await ADAPTERS.api.read({ ...ctx, apiIds: [] })).find((l) => l.key === change.key);
  if (fresh && digest(masked(withHookNames(ctx, fresh.object))) === change.read) {
    change.etag = fresh.etag;
    live.state = fresh.state;
  }
}

const withHookNames = (ctx: Ctx, o: ConfigObject) => {
  const copy = structuredClone(o);
  rewriteHookRefs(copy, (id) => (ctx.hooks.nameById.has(id) ? hookRef(ctx.hooks.nameById.get(id)!) : id));
  return copy;
};

/** The Idempotency-Key of a create: the same plan step (organisation, object, body) gives the same key. */
const idempotencyKey = (ctx: Ctx, o: ConfigObject) => `gwctl-${digest([ctx.org, o.kind, ADAPTERS[o.kind].keyOf(o), o])}`;

/** `file`: the object as its file holds it (compared with the read); `desired`: with the environment's values (sent). */
async function apply(
  ctx: Ctx,
  change: Change,
  live: Live | undefined,
  file: ConfigObject | undefined,
  desired: ConfigObject | undefined,
): Promise<{ outcome: Outcome; why?: string }> {
  const adapter = ADAPTERS[change.kind];
  let body: ConfigObject | undefined;
  if (desired) {
    body = structuredClone(desired);
    rewriteHookRefs(body, (ref) => {
      const m = HOOK_REF.exec(ref);
      if (!m) return ref;
      const id = ctx.hooks.idByName.get(m[1]!);
      if (!id) throw new GwctlError(`${change.kind} ${change.key} names the webhook ${m[1]}, which the organisation does not have`);
      return id;
    });
  }
  // A step a previous run (or another writer) already made is not made again.
  const inPlace = live && file && digest(comparable(live.object, file)) === digest(file);
  try {
    switch (change.action) {
      case 'create':
        if (live) return inPlace ? { outcome: 'in place' } : { outcome: 'drift', why: 'created by another writer since the plan' };
        await adapter.create(ctx, body!, idempotencyKey(ctx, desired!));
        return { outcome: 'applied' };
      case 'update':
        if (!live) return { outcome: 'drift', why: 'deleted by another writer since the plan' };
        if (inPlace) return { outcome: 'in place' };
        if (JSON.stringify(live.object.version_of) !== JSON.stringify(file!.version_of)) {
          throw new GwctlError(`API ${change.key}: version_of changed; a version cannot move to another base (delete it and create it again)`);
        }
        if (!change.etag && change.read !== digest(live.object)) return { outcome: 'drift', why: 'changed by another writer since the plan' };
        await adapter.update(ctx, live, body!, change.etag);
        return { outcome: 'applied' };
      case 'delete':
        if (!live) return { outcome: 'in place' };
        if (!change.etag && change.read !== digest(live.object)) return { outcome: 'drift', why: 'changed by another writer since the plan' };
        await adapter.remove(ctx, live, change.etag);
        return { outcome: 'applied' };
    }
  } catch (e) {
    if (e instanceof HttpError && e.status === 412) return { outcome: 'drift', why: 'changed by another writer since the plan (412)' };
    if (e instanceof HttpError && e.status === 409 && change.action === 'create') return { outcome: 'drift', why: `${e.message}` };
    throw e;
  }
}
