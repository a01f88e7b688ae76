/**
 * A client that knows the route table: each request carries the credential of the route it
 * matches (the test ones), every answer's hygiene is checked, and per route it remembers which
 * answers were seen and the first request the route accepted (the base the fuzzer breaks). The
 * world seeder (world.ts), the fuzz suite and the per-route walk of the emulator test use it.
 */
import { matchRoute } from '../../shared/http/fallback';
import type { Group, RouteDef } from '../../shared/route-def';
import { hygieneProblems, type Answer } from '../hardening/support/hygiene';
import type { BaseRequest } from '../hardening/support/cases';
import { request } from './client';
import { ADMIN_SECRET, GW_SECRET } from './table';

export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>) => `${r.method} ${r.path}`;

export interface Seen {
  ok: number;
  errors: number;
  hygiene: string[];
}

export class RouteClient {
  readonly seen = new Map<string, Seen>();
  readonly bases = new Map<string, BaseRequest>();
  /** Every answer in order: its route key (or method and path when no route matched) and status. */
  readonly answers: Array<{ route: string; status: number }> = [];
  dashKey = '';
  /** A developer session of the world's portal (the developer routes' credential). */
  devKey = '';

  constructor(readonly baseUrl: string) {}

  credentials(group: Group): Record<string, string> {
    if (group === 'gateway') return { 'x-gw-authorization': GW_SECRET };
    if (group === 'admin') return { 'admin-auth': ADMIN_SECRET };
    if (group === 'dashboard') return { authorization: `Bearer ${this.dashKey}` };
    if (group === 'developer') return { authorization: `Bearer ${this.devKey}` };
    return {};
  }

  /** One request; credentials of the route's group are added unless `headers` names them. */
  async send(method: string, url: string, opts: { headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<Answer> {
    const pathname = new URL(url, 'http://x').pathname;
    const route = matchRoute(method, pathname)?.route;
    const headers = { ...(route ? this.credentials(route.group) : {}), ...(opts.headers ?? {}) };
    const res = await request(this.baseUrl, method, url, { headers, body: opts.body });
    const answer: Answer = { status: res.status, headers: res.headers, text: res.text, body: res.body };
    this.answers.push({ route: route ? routeKey(route) : `${method} ${pathname}`, status: res.status });
    if (route) {
      const k = routeKey(route);
      const s = this.seen.get(k) ?? { ok: 0, errors: 0, hygiene: [] };
      if (res.status < 300) s.ok++;
      else s.errors++;
      for (const p of hygieneProblems(answer)) if (s.hygiene.length < 20) s.hygiene.push(`${res.status} ${method} ${url.slice(0, 120)}: ${p}`);
      this.seen.set(k, s);
    }
    return answer;
  }

  /**
   * A JSON (or raw) request that must succeed; the first success of each route becomes its
   * fuzz base. Throws with the answer otherwise, so a broken seed step is named.
   */
  async ok(
    method: string,
    url: string,
    body?: unknown,
    opts: { contentType?: string; params?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const contentType = text === undefined ? undefined : (opts.contentType ?? 'application/json');
    const a = await this.send(method, url, { body: text, headers: { ...(contentType ? { 'content-type': contentType } : {}), ...(opts.headers ?? {}) } });
    if (a.status >= 300) throw new Error(`seed ${method} ${url} answered ${a.status}: ${a.text.slice(0, 300)}`);
    const u = new URL(url, 'http://x');
    const hit = matchRoute(method, u.pathname);
    const route = hit?.route;
    if (route && !this.bases.has(routeKey(route))) {
      let value: unknown;
      try {
        value = text === undefined ? undefined : JSON.parse(text);
      } catch {
        value = undefined;
      }
      this.bases.set(routeKey(route), {
        params: hit!.params,
        query: Object.fromEntries(u.searchParams),
        body: text === undefined ? undefined : { text, contentType, value },
      });
    }
    return a;
  }
}
