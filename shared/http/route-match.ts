/**
 * The one route matcher, with API Gateway HTTP API's precedence, so every stage picks the same
 * route for a request: `npm start`'s server and the 404/405 fallback over the route table, the
 * emulator over the synthesized template's routes (which may hold `ANY` and `{proxy+}`).
 *
 * Precedence (API Gateway, "Routing API requests"): among the routes whose path matches, the most
 * specific path wins, segment by segment from the left: a literal segment before a `{variable}`,
 * a variable before a greedy `{proxy+}`; for equally specific paths a route with the request's
 * method before `ANY`. What no route takes goes to `$default` (the caller's fallback). So
 * `/api/apis/oas/import` is never taken by `/api/apis/oas/{apiID}` or `/api/apis/{apiID}/...`,
 * whatever the table's order.
 */

/** A route as the matcher sees it: a method (or `ANY`) and a path template such as `/gw/apis/{apiID}`. */
interface RoutePattern {
  method: string;
  path: string;
}

interface RouteMatch<R> {
  route: R;
  /** The path parameters, URL-decoded (as API Gateway hands them to the function). */
  params: Record<string, string>;
}

type Segment = { literal: string } | { param: string; greedy: boolean };

interface Compiled<R> {
  route: R;
  segments: Segment[];
}

function compile<R extends RoutePattern>(route: R): Compiled<R> {
  const segments = route.path
    .split('/')
    .slice(1)
    .map((s): Segment => {
      const m = /^\{([^}+]+)(\+?)\}$/.exec(s);
      return m ? { param: m[1]!, greedy: m[2] === '+' } : { literal: s };
    });
  return { route, segments };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The route's path parameters for the path's segments, or undefined when its path does not match. */
function paramsOf(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if ('literal' in seg) {
      if (parts[i] !== seg.literal) return undefined;
    } else if (seg.greedy) {
      if (i >= parts.length) return undefined;
      params[seg.param] = decode(parts.slice(i).join('/'));
      return params;
    } else {
      if (!parts[i]) return undefined;
      params[seg.param] = decode(parts[i]!);
    }
  }
  return parts.length === segments.length ? params : undefined;
}

const rank = (s: Segment | undefined) => (s === undefined ? -1 : 'literal' in s ? 2 : s.greedy ? 0 : 1);

/** Negative when `a` takes precedence over `b`. */
function precedence<R extends RoutePattern>(a: Compiled<R>, b: Compiled<R>): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const d = rank(b.segments[i]) - rank(a.segments[i]);
    if (d) return d;
  }
  return Number(a.route.method === 'ANY') - Number(b.route.method === 'ANY');
}

interface RouteMatcher<R> {
  /** The route API Gateway picks for this request, or undefined when it goes to `$default`. */
  match(method: string, path: string): RouteMatch<R> | undefined;
  /**
   * The methods (a 405's Allow), in table order, whose request on this path reaches a route that
   * `reaches` accepts (default: any); empty when none.
   */
  methodsOf(path: string, reaches?: (route: R) => boolean): string[];
}

/** A matcher over `routes`, sorted once by precedence (ties keep their order). */
export function routeMatcher<R extends RoutePattern>(routes: readonly R[]): RouteMatcher<R> {
  const inTableOrder = routes.map(compile);
  const byPrecedence = [...inTableOrder].sort(precedence);
  const partsOf = (path: string) => path.split('/').slice(1);
  const match = (method: string, path: string): RouteMatch<R> | undefined => {
    const parts = partsOf(path);
    for (const c of byPrecedence) {
      if (c.route.method !== method && c.route.method !== 'ANY') continue;
      const params = paramsOf(c.segments, parts);
      if (params) return { route: c.route, params };
    }
    return undefined;
  };
  const methods = [...new Set(inTableOrder.map((c) => c.route.method))];
  return {
    match,
    methodsOf(path, reaches = () => true) {
      return methods.filter((m) => {
        const hit = match(m, path);
        return hit !== undefined && reaches(hit.route);
      });
    },
  };
}

/** A request path standing for a template: a value no literal segment equals in each parameter. */
const probeOf = (c: Compiled<RoutePattern>) => c.segments.map((s) => ('literal' in s ? s.literal : '\u0000'));

/** Each path of `routes` with the less specific routes its requests also match (its siblings). */
function siblingsOf(routes: readonly RoutePattern[]): Array<{ path: Compiled<RoutePattern>; methods: Set<string>; siblings: Compiled<RoutePattern>[] }> {
  const compiled = routes.map(compile);
  const paths = [...new Map(compiled.map((c) => [c.route.path, c])).values()];
  return paths.map((p) => {
    const probe = probeOf(p);
    return {
      path: p,
      methods: new Set(compiled.filter((c) => c.route.path === p.route.path).map((c) => c.route.method)),
      siblings: compiled.filter((c) => c.route.path !== p.route.path && paramsOf(c.segments, probe) && precedence(p, c) < 0),
    };
  });
}

/**
 * The routes a table must add so that a path answers only its own methods: API Gateway matches
 * method and path together, so a method a path lacks reaches a less specific sibling that has it
 * (`PUT /api/apis/oas/import` would be `PUT /api/apis/oas/{apiID}` with the id `import`). Each
 * added route (that method on that path) goes where `$default` goes: a 405.
 */
export function closedRoutes(routes: readonly RoutePattern[]): RoutePattern[] {
  const out = new Map<string, RoutePattern>();
  for (const { path, methods, siblings } of siblingsOf(routes)) {
    for (const s of siblings) {
      if (!methods.has(s.route.method) && !methods.has('ANY'))
        out.set(`${s.route.method} ${path.route.path}`, { method: s.route.method, path: path.route.path });
    }
  }
  return [...out.values()];
}

/**
 * The words a path parameter can never take, by parameter name: each literal segment of a path
 * where a less specific sibling has that parameter (`oas` for `apiID`: `/api/apis/oas` is a path
 * of its own, so `/api/apis/{apiID}` never sees an API of that id).
 */
export function reservedWords(routes: readonly RoutePattern[]): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const { path, siblings } of siblingsOf(routes)) {
    for (const s of siblings) {
      s.segments.forEach((seg, i) => {
        const mine = path.segments[i];
        if ('param' in seg && mine && 'literal' in mine) (out[seg.param] ??= new Set()).add(mine.literal);
      });
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort()]));
}
