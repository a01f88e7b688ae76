/**
 * Policies, known by their id (the client's choice). Their `access_rights` name APIs by api_id.
 */
import { etagOf, must } from '../client';
import type { components } from '../generated/api';
import { type ConfigObject, type JsonObject } from '../model';
import type { Ctx, KindAdapter, Live } from './kind';

type PolicyInput = components['schemas']['PolicyInput'];

/** Members the service sets: the database id, the organisation, the stamps. */
const SERVER_OWNED = ['_id', 'org_id', 'date_created', 'last_updated'];
const keyOf = (o: ConfigObject) => String(o.spec.id ?? '');
const ifMatchHeader = (ifMatch: string | undefined) => (ifMatch ? { 'If-Match': ifMatch } : {});

export const policies: KindAdapter & { known: string[] } = {
  kind: 'policy',
  dir: 'policies',
  transport: 'gateway: GET/PUT/DELETE /gw/policies/{policyID}, POST /gw/policies (no list: only the folder\'s policies are read)',
  schema: 'PolicyInput',
  keyOf,
  fileOf: (o) => `policies/${keyOf(o)}.yaml`,
  tagsOf: (o) => (Array.isArray(o.spec.tags) ? o.spec.tags.map(String) : []),
  known: [],

  async read(ctx) {
    const lives: Live[] = [];
    for (const id of policies.known) {
      const r = await ctx.clients.gateway.GET('/gw/policies/{policyID}', { params: { path: { policyID: id } } });
      if (r.response.status === 404) continue;
      const p = must(`read policy ${id}`, r) as JsonObject;
      if (p.org_id !== ctx.org) continue;
      lives.push(fromPolicy(p, etagOf(r)));
    }
    return lives;
  },

  async create(ctx, o, idempotencyKey) {
    must(`create policy ${keyOf(o)}`, await ctx.clients.gateway.POST('/gw/policies', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body: body(ctx, o) }));
  },

  async update(ctx, live, o, ifMatch) {
    must(
      `update policy ${live.key}`,
      await ctx.clients.gateway.PUT('/gw/policies/{policyID}', { params: { path: { policyID: live.key }, header: ifMatchHeader(ifMatch) }, body: body(ctx, o) }),
    );
  },

  async remove(ctx, live, ifMatch) {
    must(`delete policy ${live.key}`, await ctx.clients.gateway.DELETE('/gw/policies/{policyID}', { params: { path: { policyID: live.key }, header: ifMatchHeader(ifMatch) } }));
  },
};

function fromPolicy(p: JsonObject, etag: string | undefined): Live {
  const spec = structuredClone(p);
  for (const k of SERVER_OWNED) delete spec[k];
  return { key: String(spec.id), object: { kind: 'policy', spec }, etag, state: {} };
}

/** Checked against PolicyInput by validate before any write. */
const body = (ctx: Ctx, o: ConfigObject) => ({ ...o.spec, org_id: ctx.org }) as unknown as PolicyInput;

