/**
 * The organisation's configuration as the service holds it, read kind by kind in reference order
 * and mapped to file form: hook ids in definitions and templates become `${hook:<name>}`, and every
 * credential is masked (credentials.ts) before a plan, a digest or a dump sees it.
 */
import { clientsFor, credentialsFrom, must } from './client';
import { masked } from './credentials';
import { ADAPTERS } from './kinds';
import { HookIds, type Ctx, type Live } from './kinds/kind';
import { hookRef, isObject, KINDS, type ConfigObject, type Kind } from './model';
import type { Known } from './validate';
import { mapHookIds } from './refs';

/** A context for the stage and organisation the environment names. */
export async function connect(env: NodeJS.ProcessEnv): Promise<Ctx> {
  const clients = clientsFor(credentialsFrom(env));
  const me = must('who am I (GET /api/users/me)', await clients.dashboard.GET('/api/users/me', {}));
  return { clients, org: me.org_id, hooks: new HookIds(), apiIds: [] };
}

/** Hook ids to names (or back), where definitions and templates name hooks. */
export function rewriteHookRefs(o: ConfigObject, map: (idOrRef: string) => string): void {
  if (o.kind === 'api') mapHookIds(o.spec, map);
  if (o.kind === 'template' && isObject(o.spec.data)) mapHookIds(o.spec.data, map);
}

export type OrgState = Map<Kind, Live[]>;

export async function readOrg(ctx: Ctx): Promise<OrgState> {
  const state: OrgState = new Map();
  for (const kind of KINDS) {
    const lives = await ADAPTERS[kind].read(ctx);
    // A hook id the organisation does not have stays as it is (validate reports it).
    for (const l of lives) {
      rewriteHookRefs(l.object, (id) => (ctx.hooks.nameById.has(id) ? hookRef(ctx.hooks.nameById.get(id)!) : id));
      l.object = masked(l.object);
    }
    state.set(
      kind,
      lives.sort((a, b) => a.key.localeCompare(b.key)),
    );
  }
  return state;
}

/** What the organisation holds, as validate names it (hooks by name and by id). */
export function knownOf(state: OrgState): Known {
  const known: Known = new Map();
  for (const [kind, lives] of state) known.set(kind, new Set(lives.flatMap((l) => (kind === 'hook' ? [l.key, String(l.state.id)] : [l.key]))));
  return known;
}
