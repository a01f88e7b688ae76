/**
 * Webhooks, through the dashboard group (`/api/hooks`). The service generates their ids, so a file
 * names a hook by its `name` (unique in a folder) and definitions name it as `${hook:<name>}`.
 * Header values and the target's credentials are write-only (reads show `********`): files hold
 * `${env:NAME}` references (credentials.ts).
 */
import { must } from '../client';
import type { components } from '../generated/api';
import { fileSlug, type ConfigObject, type JsonObject } from '../model';
import type { KindAdapter, Live } from './kind';
import { allPages } from './paging';

type WebhookInput = components['schemas']['WebhookInput'];

export const hooks: KindAdapter = {
  kind: 'hook',
  dir: 'hooks',
  transport: 'dashboard: GET/POST /api/hooks, PUT/DELETE /api/hooks/{hookID}',
  schema: 'WebhookInput',
  keyOf: (o) => String(o.spec.name ?? ''),
  fileOf: (o) => `hooks/${fileSlug(String(o.spec.name ?? ''))}.yaml`,
  tagsOf: () => undefined,

  async read(ctx) {
    const list = await allPages(async (cursor) => {
      const r = must('list webhooks', await ctx.clients.dashboard.GET('/api/hooks', { params: { query: { page_size: 100, ...(cursor ? { cursor } : {}) } } }));
      return { items: r.hooks, next_cursor: r.next_cursor };
    });
    return list.map((h): Live => {
      ctx.hooks.add(h.id, h.name);
      const spec: JsonObject = { name: h.name, method: h.method, target_path: h.target_path, header_map: h.header_map };
      if (h.template_path !== undefined) spec.template_path = h.template_path;
      if (h.event_timeout !== undefined) spec.event_timeout = h.event_timeout;
      return { key: h.name, object: { kind: 'hook', spec }, etag: `"${h.version}"`, state: { id: h.id } };
    });
  },

  async create(ctx, o, idempotencyKey) {
    const r = await ctx.clients.dashboard.POST('/api/hooks', { body: body(o), headers: { 'Idempotency-Key': idempotencyKey } });
    const created = must(`create webhook ${o.spec.name}`, r);
    ctx.hooks.add(created.Meta, String(o.spec.name));
  },

  async update(ctx, live, o, ifMatch) {
    must(
      `update webhook ${live.key}`,
      await ctx.clients.dashboard.PUT('/api/hooks/{hookID}', {
        params: { path: { hookID: String(live.state.id) }, header: ifMatch ? { 'If-Match': ifMatch } : {} },
        body: body(o),
      }),
    );
  },

  async remove(ctx, live, ifMatch) {
    must(
      `delete webhook ${live.key}`,
      await ctx.clients.dashboard.DELETE('/api/hooks/{hookID}', {
        params: { path: { hookID: String(live.state.id) }, header: ifMatch ? { 'If-Match': ifMatch } : {} },
      }),
    );
  },
};

/** The file's spec is checked against WebhookInput before any write (validate runs first). */
const body = (o: ConfigObject) => o.spec as unknown as WebhookInput;
