/**
 * Templates (assets of kind oas-template), through the dashboard group (`/api/assets`). A template
 * is known by its custom `id` when it has one, else by its `name`; the generated `_id` is left out.
 * Hook ids in its `x-gw-api-gateway` are written as `${hook:<name>}` like definitions'.
 */
import { must, etagOf } from '../client';
import type { components } from '../generated/api';
import { fileSlug, type ConfigObject, type JsonObject } from '../model';
import type { KindAdapter, Live } from './kind';
import { allPages } from './paging';

type AssetInput = components['schemas']['AssetInput'];

const keyOf = (o: ConfigObject) => String(o.spec.id ?? o.spec.name ?? '');

export const templates: KindAdapter = {
  kind: 'template',
  dir: 'templates',
  transport: 'dashboard: GET/POST /api/assets, GET/PUT/DELETE /api/assets/{assetID}',
  schema: 'AssetInput',
  keyOf,
  fileOf: (o) => `templates/${fileSlug(keyOf(o))}.yaml`,
  tagsOf: () => undefined,

  async read(ctx) {
    const list = await allPages(async (cursor) => {
      const r = must(
        'list templates',
        await ctx.clients.dashboard.GET('/api/assets', { params: { query: { page_size: 100, ...(cursor ? { cursor } : {}) } } }),
      );
      return { items: r.assets, next_cursor: r.next_cursor };
    });
    const lives: Live[] = [];
    for (const a of list) {
      // The list carries no versions: one read each for the ETag that guards the update.
      const one = await ctx.clients.dashboard.GET('/api/assets/{assetID}', { params: { path: { assetID: a._id } } });
      must(`read template ${a.id ?? a.name}`, one);
      const spec: JsonObject = { name: a.name, description: a.description, kind: a.kind, data: a.data as JsonObject };
      if (a.id !== undefined) spec.id = a.id;
      const object: ConfigObject = { kind: 'template', spec };
      lives.push({ key: keyOf(object), object, etag: etagOf(one), state: { _id: a._id } });
    }
    return lives;
  },

  async create(ctx, o, idempotencyKey) {
    must(`create template ${keyOf(o)}`, await ctx.clients.dashboard.POST('/api/assets', { body: body(o), headers: { 'Idempotency-Key': idempotencyKey } }));
  },

  async update(ctx, live, o, ifMatch) {
    must(
      `update template ${live.key}`,
      await ctx.clients.dashboard.PUT('/api/assets/{assetID}', {
        params: { path: { assetID: String(live.state._id) }, header: ifMatch ? { 'If-Match': ifMatch } : {} },
        body: body(o),
      }),
    );
  },

  async remove(ctx, live, ifMatch) {
    must(
      `delete template ${live.key}`,
      await ctx.clients.dashboard.DELETE('/api/assets/{assetID}', {
        params: { path: { assetID: String(live.state._id) }, header: ifMatch ? { 'If-Match': ifMatch } : {} },
      }),
    );
  },
};

/** Checked against AssetInput before any write (validate runs first). */
const body = (o: ConfigObject) => o.spec as unknown as AssetInput;
