/**
 * An accepted request for every route, after seeding (test/support/world.ts): the seed's first
 * success of each route, then reads, replaces of what was read, and deletes. Shared by the fuzz
 * suite (its bases and its success probe) and the per-route walk that compares stages.
 */
import { routeList } from '../../../shared/routes';
import type { RouteDef } from '../../../shared/route-def';
import { concretePath, render, type BaseRequest } from './cases';
import { routeKey, type RouteClient } from '../../support/route-client';
import type { SeededWorld } from '../../support/world';
import { sampleOf } from './zod-walk';

export function paramsOf(seeded: SeededWorld, r: RouteDef): Record<string, string> {
  const names = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  return Object.fromEntries(names.map((n) => [n, seeded.params[n] ?? 'abc123']));
}

/** The route's accepted seed request, or a schema sample when seeding had none. */
export function baseOf(c: RouteClient, seeded: SeededWorld, r: RouteDef): BaseRequest {
  const recorded = c.bases.get(routeKey(r));
  if (recorded) return recorded;
  const base: BaseRequest = { params: paramsOf(seeded, r), query: {} };
  if (r.body || r.bodyKind === 'raw') {
    const value = r.body ? sampleOf(r.body) : {};
    base.body = { text: render(value), contentType: (r.contentTypes ?? ['application/json'])[0], value };
  }
  return base;
}

/** Sends a success request to every route the seed did not reach: reads, replaces of what was read, then deletes. */
export async function probeSuccesses(c: RouteClient, seeded: SeededWorld): Promise<void> {
  const probe = async (r: RouteDef, body?: unknown, query = '') => {
    const base = baseOf(c, seeded, r);
    const q = query || (Object.keys(base.query).length ? `?${new URLSearchParams(base.query)}` : '');
    const text = body === undefined ? undefined : JSON.stringify(body);
    return c.send(r.method, concretePath(r.path, paramsOf(seeded, r)) + q, { body: text, headers: text ? { 'content-type': 'application/json' } : {} });
  };
  for (const r of routeList.filter((x) => x.method === 'GET')) await probe(r);
  // Replace with what a read of the same path answered.
  for (const r of routeList.filter((x) => x.method === 'PUT' && !c.seen.get(routeKey(x))?.ok)) {
    const read = routeList.find((x) => x.method === 'GET' && x.path === r.path);
    // The full form, without the base's query (mode=public would leave out the extension).
    const body = read
      ? (await c.send('GET', concretePath(read.path, paramsOf(seeded, read)))).body
      : r.path.startsWith('/gw/oauth/')
        ? { redirect_uri: 'https://app.example/cb2' }
        : undefined;
    if (body !== undefined) {
      const a = await probe(r, body);
      if (a.status >= 300) console.warn(`success probe ${routeKey(r)} answered ${a.status}: ${a.text.slice(0, 300)}`);
    }
  }
  // Deletes last: objects named by more parameters first, the APIs they hang on at the very end
  // (the gateway's delete before the dashboard's, whose success the seed already has).
  const last = (path: string) => ['/gw/apis/{apiID}', '/api/apis/{apiID}'].indexOf(path) + 1;
  // Not the organisation's own delete: it would offboard the world (the seed has its success, on an organisation of its own);
  // nor the developer's sign-out, which would end the world's developer session (the seed signed out a session of its own).
  const kept = ['/admin/organisations/{orgID}', '/portal/{orgID}/session'];
  const deletes = routeList
    .filter((x) => x.method === 'DELETE' && !kept.includes(x.path))
    .sort((a, b) => (b.path.match(/\{/g)?.length ?? 0) - (a.path.match(/\{/g)?.length ?? 0) || last(a.path) - last(b.path));
  for (const r of deletes) await probe(r);
}
