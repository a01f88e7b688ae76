/**
 * The one route matcher (shared/http/route-match.ts): API Gateway HTTP API's precedence whatever
 * the order of the routes, the path parameters it hands over, and the methods a path takes (the
 * fallback's 405). `npm start`, the fallback and the emulator all match with it.
 */
import { describe, expect, it } from 'vitest';
import { closedRoutes, reservedWords, routeMatcher } from '../../shared/http/route-match';
import { fallbackResponse, matchRoute } from '../../shared/http/fallback';
import { routeList } from '../../shared/routes';
import { RESERVED_PATH_WORDS } from '../../shared/schemas/common';

const matcher = (keys: string[]) =>
  routeMatcher(
    keys.map((k) => {
      const [method, path] = k.split(' ') as [string, string];
      return { key: k, method, path };
    }),
  );
const picks = (m: ReturnType<typeof matcher>, method: string, path: string) => m.match(method, path)?.route.key;

describe('precedence (API Gateway HTTP API)', () => {
  // The dashboard routes the self-service work adds beside the import: a parameter segment in the
  // same place as the import's literal one, listed first so table order would pick it.
  const routes = ['GET /api/apis/oas/{apiID}', 'POST /api/apis/{apiID}', 'GET /api/apis/{apiID}', 'POST /api/apis/oas/import', 'GET /api/apis'];

  it('takes a literal segment before a variable in the same place, whatever the order of the routes', () => {
    for (const order of [routes, [...routes].reverse()]) {
      const m = matcher(order);
      expect(picks(m, 'POST', '/api/apis/oas/import')).toBe('POST /api/apis/oas/import');
      expect(picks(m, 'GET', '/api/apis/oas/import')).toBe('GET /api/apis/oas/{apiID}');
      expect(picks(m, 'GET', '/api/apis/oas')).toBe('GET /api/apis/{apiID}');
      expect(picks(m, 'GET', '/api/apis')).toBe('GET /api/apis');
    }
  });

  it('decides by the leftmost segment that differs: an earlier literal wins', () => {
    const m = matcher(['GET /a/{x}/c', 'GET /{y}/b/c']);
    expect(picks(m, 'GET', '/a/b/c')).toBe('GET /a/{x}/c');
  });

  it('takes a variable before a greedy variable, and a route with the method before ANY', () => {
    const m = matcher(['ANY /files/{proxy+}', 'GET /files/{name}', 'ANY /files/{name}', 'GET /{proxy+}']);
    expect(m.match('GET', '/files/a')).toEqual({ route: expect.objectContaining({ key: 'GET /files/{name}' }), params: { name: 'a' } });
    expect(picks(m, 'DELETE', '/files/a')).toBe('ANY /files/{name}');
    expect(m.match('GET', '/files/a/b')).toEqual({ route: expect.objectContaining({ key: 'ANY /files/{proxy+}' }), params: { proxy: 'a/b' } });
    expect(picks(m, 'GET', '/other/x')).toBe('GET /{proxy+}');
    expect(picks(m, 'POST', '/other/x')).toBeUndefined();
  });

  it('decodes parameters, needs every segment, and leaves what nothing takes to $default', () => {
    const m = matcher(['GET /gw/apis/{apiID}', 'POST /gw/apis']);
    expect(m.match('GET', '/gw/apis/a%40b')?.params).toEqual({ apiID: 'a@b' });
    expect(m.match('GET', '/gw/apis/a%zzb')?.params).toEqual({ apiID: 'a%zzb' });
    expect(m.match('GET', '/gw/apis/')).toBeUndefined();
    expect(m.match('GET', '/gw/apis/a/b')).toBeUndefined();
    expect(m.match('PUT', '/gw/apis')).toBeUndefined();
    expect(m.methodsOf('/gw/apis')).toEqual(['POST']);
    expect(m.methodsOf('/nope')).toEqual([]);
  });
});

describe('the route table under the matcher', () => {
  it('reaches every route of the table through its own path, with the parameters named in it', () => {
    const wrong = routeList.filter((r) => {
      const concrete = r.path.replace(/\{([^}]+)\}/g, (_, name: string) => `v-${name}`);
      const hit = matchRoute(r.method, concrete);
      return hit?.route.name !== r.name || Object.values(hit.params).some((v) => !v.startsWith('v-'));
    });
    expect(wrong.map((r) => r.name)).toEqual([]);
  });

  it('answers 405 with Allow naming every method a path takes, and 404 for a path no route has', () => {
    const r405 = fallbackResponse('PATCH', '/api/apis/streams');
    expect(r405.statusCode).toBe(405);
    expect(r405.headers.Allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
    // The import's path is only the import: never GET or PUT /api/apis/oas/{apiID} with the id "import".
    expect(fallbackResponse('DELETE', '/api/apis/oas/import').headers.Allow).toBe('POST');
    const hooks = fallbackResponse('POST', '/api/hooks/abc');
    expect(hooks.headers.Allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
    expect(fallbackResponse('GET', '/api/nothing-here').statusCode).toBe(404);
  });
});

describe('fixed paths beside a templated sibling (API Gateway matches method and path together)', () => {
  it('reach only their own routes: a method they lack is closed (405 naming their methods), never the sibling with the word as its id', () => {
    const cases: Array<[string, string, string]> = [
      ['PUT', '/api/apis/oas/import', 'POST'],
      ['GET', '/api/apis/oas/import', 'POST'],
      ['OPTIONS', '/api/apis/oas/import', 'POST'],
      ['GET', '/api/apis/oas', 'POST'],
      ['PUT', '/api/apis/oas', 'POST'],
      ['DELETE', '/api/apis/oas', 'POST'],
      ['GET', '/gw/apis/oas', 'POST'],
      ['DELETE', '/gw/apis/oas', 'POST'],
      ['GET', '/gw/keys/create', 'POST'],
      ['DELETE', '/gw/keys/create', 'POST'],
      ['GET', '/gw/oauth/clients/create', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      expect(matchRoute(method, path), `${method} ${path}`).toBeUndefined();
      const a = fallbackResponse(method, path);
      expect([a.statusCode, a.headers.Allow], `${method} ${path}`).toEqual([405, allow]);
    }
    // The siblings keep every other id, and the fixed paths their own methods.
    expect(matchRoute('GET', '/api/apis/oas-like')?.route.name).toBe('apisGet');
    expect(matchRoute('PUT', '/api/apis/oas/other')?.route.name).toBe('oasDashboardUpdate');
    expect(matchRoute('POST', '/api/apis/oas/import')?.route.name).toBe('oasImport');
    expect(matchRoute('GET', '/gw/keys/abc')?.route.name).toBe('keysGet');
  });

  it('are found from the route table: each method a less specific sibling has on the path, and the words reserved for its parameters', () => {
    expect(
      closedRoutes(routeList)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(
      [
        'GET /gw/apis/oas',
        'DELETE /gw/apis/oas',
        'GET /api/apis/oas',
        'PUT /api/apis/oas',
        'DELETE /api/apis/oas',
        'GET /api/apis/oas/import',
        'PUT /api/apis/oas/import',
        'GET /gw/keys/create',
        'DELETE /gw/keys/create',
        'GET /gw/oauth/clients/create',
        'GET /admin/organisations/import',
        'PUT /admin/organisations/import',
        'DELETE /admin/organisations/import',
      ].sort(),
    );
    // The schemas refuse these words as ids (they cannot import the table): the same list.
    expect(reservedWords(routeList)).toEqual(RESERVED_PATH_WORDS);
    // An ANY sibling is closed with ANY: API Gateway takes a route with the method before ANY.
    const small = [
      { method: 'GET', path: '/a/{id}' },
      { method: 'ANY', path: '/a/{id}/b' },
      { method: 'POST', path: '/a/x' },
      { method: 'POST', path: '/a/x/b' },
    ];
    expect(routeMatcher(small).match('GET', '/a/x')?.route.path).toBe('/a/{id}');
    const closed = closedRoutes(small);
    expect(closed).toEqual([
      { method: 'GET', path: '/a/x' },
      { method: 'ANY', path: '/a/x/b' },
    ]);
    const m = routeMatcher([...small, ...closed]);
    expect([m.match('GET', '/a/x')?.route, m.match('PUT', '/a/x/b')?.route, m.match('POST', '/a/x/b')?.route]).toEqual([closed[0], closed[1], small[3]]);
    expect(reservedWords(small)).toEqual({ id: ['x'] });
  });
});
