/**
 * Answers made outside a route's own handler, generated from the route table, for any stage:
 * an unknown path (404) and a known path with another method (405) under every prefix (`/api`,
 * `/gw`, `/admin` and one no route has), a fixed path asked with a method only its templated
 * sibling has (405, never the sibling with the path's word as its id), the reserved words refused
 * as ids, and a body over 5 MB (413) on every write route. Each
 * carries `X-Request-Id` and the other headers every answer has, in the envelope of its prefix
 * (contract §3). It runs against the source stage (test/e2e/edge-answers.test.ts) and the emulated
 * cloud stage (test/emulator/stage.test.ts), where the `$default` route's function answers 404
 * and 405.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits';
import { closedRoutes, reservedWords } from '../../shared/http/route-match';
import { routeList } from '../../shared/routes';
import type { Group } from '../../shared/route-def';
import { developerSession } from './developer-session';
import { concretePath } from './credential-sweep';
import { ADMIN_SECRET, GW_SECRET } from './table';
import type { Answer, Stage } from './stage';

/** Over 5 MB of JSON, yet well under Lambda's 6 MB invoke limit, so the cloud's function sees it. */
const OVERSIZED = Buffer.from(JSON.stringify({ filler: 'x'.repeat(LIMITS.bodyBytes + 1024) }));

/** Paths no route has, and known paths asked with a method none of their routes takes, per prefix. */
const UNKNOWN = ['/api/no-such-route', '/gw/no-such-route', '/admin/no-such-route', '/no-such-prefix/x', '/'];
const WRONG_METHOD: Array<[string, string]> = [
  ['DELETE', '/api/users'],
  ['PATCH', '/gw/keys/create'],
  ['DELETE', '/admin/organisations'],
  ['POST', '/hello'],
];
const writeRoutes = routeList.filter((r) => r.access === 'write');

function expectCommonHeaders(r: Answer, label: string): void {
  expect(r.headers.get('x-request-id'), label).toMatch(/^[0-9a-f-]{36}$/);
  expect(r.headers.get('cache-control'), label).toBe('no-store');
  expect(r.headers.get('x-content-type-options'), label).toBe('nosniff');
}

function expectEnvelope(group: Group, r: Answer, label: string): void {
  if (group === 'gateway') expect(r.body, label).toMatchObject({ status: 'error', message: expect.any(String) });
  else expect(r.body, label).toMatchObject({ Status: 'Error', Message: expect.any(String), Meta: null });
}

const groupOf = (path: string): Group => (path.startsWith('/gw/') ? 'gateway' : path.startsWith('/admin/') ? 'admin' : 'dashboard');

export function describeEdgeAnswers(title: string, stage: () => Stage): void {
  let dashKey: string;
  let devKey: string;
  const credential = (group: Group): Record<string, string> =>
    ({
      dashboard: { authorization: `Bearer ${dashKey}` },
      gateway: { 'x-gw-authorization': GW_SECRET },
      admin: { 'admin-auth': ADMIN_SECRET },
      public: {},
      developer: { authorization: `Bearer ${devKey}` },
    })[group];

  describe(title, () => {
    beforeAll(async () => {
      const tenant = await stage().tenant();
      dashKey = tenant.key;
      devKey = await developerSession(stage(), tenant.orgId, dashKey);
    });

    it('404 for an unknown path under every prefix, with X-Request-Id, in the prefix envelope', async () => {
      for (const path of UNKNOWN) {
        for (const method of ['GET', 'POST']) {
          const r = await stage().call(method, path, { headers: credential(groupOf(path)), body: method === 'POST' ? {} : undefined });
          const label = `${method} ${path}`;
          expect(r.status, label).toBe(404);
          expectEnvelope(groupOf(path), r, label);
          expectCommonHeaders(r, label);
        }
      }
    });

    it('405 for a known path with another method under every prefix, with Allow and X-Request-Id', async () => {
      for (const [method, path] of WRONG_METHOD) {
        const r = await stage().call(method, path, { headers: credential(groupOf(path)), body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        const label = `${method} ${path}`;
        expect(r.status, label).toBe(405);
        expect(r.headers.get('allow'), label).toBeTruthy();
        expectEnvelope(groupOf(path), r, label);
        expectCommonHeaders(r, label);
      }
    });

    it('405 for a fixed path asked with a method only a templated sibling has (PUT /api/apis/oas/import), Allow naming its own', async () => {
      const closed = closedRoutes(routeList);
      expect(closed.length).toBeGreaterThan(5);
      for (const { method, path } of [...closed, { method: 'OPTIONS', path: '/api/apis/oas/import' }]) {
        const own = routeList.filter((r) => r.path === path).map((r) => r.method);
        const r = await stage().call(method, path, { headers: credential(groupOf(path)), body: method === 'PUT' ? {} : undefined });
        const label = `${method} ${path}`;
        expect([r.status, r.headers.get('allow')], label).toEqual([405, own.join(', ')]);
        expectEnvelope(groupOf(path), r, label);
        expectCommonHeaders(r, label);
      }
    });

    it('refuses every word a fixed path holds where an API id would sit, as the id of a new API (400 naming it)', async () => {
      const words = reservedWords(routeList).apiID ?? [];
      expect(words).toEqual(expect.arrayContaining(['oas', 'import', 'create']));
      const gw = credential('gateway');
      for (const id of words) {
        const listen = { value: `/reserved-${id}/`, strip: true };
        const classic = await stage().call('POST', '/gw/apis', {
          headers: gw,
          body: { api_id: id, name: id, proxy: { listen_path: listen.value, target_url: 'http://u' } },
        });
        expect([classic.status, classic.body.errors?.[0]?.path], `classic ${id}`).toEqual([400, 'body.api_id']);
        const oas = await stage().call('POST', '/gw/apis/oas', {
          headers: gw,
          body: { info: { id, name: id }, server: { listenPath: listen }, upstream: { url: 'http://u' } },
        });
        expect([oas.status, oas.body.errors?.[0]?.path], `OAS ${id}`).toEqual([400, 'body.info.id']);
      }
    });

    it('covers every write route', () => {
      expect(writeRoutes.length).toBeGreaterThan(20);
    });

    for (const route of writeRoutes) {
      it(`413 with X-Request-Id for a body over 5 MB: ${route.method} ${route.path}`, async () => {
        const r = await stage().call(route.method, concretePath(route.path), {
          headers: { ...credential(route.group), 'content-type': 'application/json' },
          body: OVERSIZED,
        });
        expect(r.status).toBe(413);
        expectEnvelope(route.group, r, route.path);
        expectCommonHeaders(r, route.path);
      });
    }
  });
}
