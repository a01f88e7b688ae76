/**
 * Policies, through the dashboard group (`/api/portal/policies`), known by their id (the client's
 * choice). Their `access_rights` name APIs by api_id.
 */
import { etagOf, must } from '../client';
import type { components } from '../generated/api';
import type { ConfigObject, JsonObject } from '../model';
import type { KindAdapter, Live } from './kind';
import { allPages } from './paging';

type PolicyInput = components['schemas']['PolicyInput'];

/** Members the service sets: the database id, the organisation, the stamps. */
const SERVER_OWNED = ['_id', 'org_id', 'date_created', 'last_updated'];
const keyOf = (o: ConfigObject) => String(o.spec.id ?? '');
const ifMatchHeader = (ifMatch: string | undefined) => (ifMatch ? { 'If-Match': ifMatch } : {});

export const policies: KindAdapter = {
  kind: 'policy',
  dir: 'policies',
  transport: 'dashboard: GET/POST /api/portal/policies, GET/PUT/DELETE /api/portal/policies/{policyID}',
  schema: 'PolicyInput',
  keyOf,
  fileOf: (o) => `policies/${keyOf(o)}.yaml`,
  tagsOf: (o) => (Array.isArray(o.spec.tags) ? o.spec.tags.map(String) : []),

  async read(ctx) {
    const list = await allPages(async (cursor) => {
      const r = must(
        'list policies',
        await ctx.clients.dashboard.GET('/api/portal/policies', { params: { query: { page_size: 100, ...(cursor ? { cursor } : {}) } } }),
      );
      return { items: r.Data, next_cursor: r.next_cursor };
    });
    const lives: Live[] = [];
    for (const p of list) {
      // The list carries no versions: one read each for the ETag that guards the update.
      const one = await ctx.clients.dashboard.GET('/api/portal/policies/{policyID}', { params: { path: { policyID: p.id } } });
      lives.push(fromPolicy(must(`read policy ${p.id}`, one) as JsonObject, etagOf(one)));
    }
    return lives;
  },

  async create(ctx, o, idempotencyKey) {
    must(
      `create policy ${keyOf(o)}`,
      await ctx.clients.dashboard.POST('/api/portal/policies', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body: body(o) }),
    );
  },

  async update(ctx, live, o, ifMatch) {
    must(
      `update policy ${live.key}`,
      await ctx.clients.dashboard.PUT('/api/portal/policies/{policyID}', {
        params: { path: { policyID: live.key }, header: ifMatchHeader(ifMatch) },
        body: body(o),
      }),
    );
  },

  async remove(ctx, live, ifMatch) {
    must(
      `delete policy ${live.key}`,
      await ctx.clients.dashboard.DELETE('/api/portal/policies/{policyID}', { params: { path: { policyID: live.key }, header: ifMatchHeader(ifMatch) } }),
    );
  },
};

function fromPolicy(p: JsonObject, etag: string | undefined): Live {
  const spec = structuredClone(p);
  for (const k of SERVER_OWNED) delete spec[k];
  return { key: String(spec.id), object: { kind: 'policy', spec }, ...(etag ? { etag } : {}), state: {} };
}

/** Checked against PolicyInput by validate before any write; the organisation is the caller's. */
const body = (o: ConfigObject) => o.spec as unknown as PolicyInput;
