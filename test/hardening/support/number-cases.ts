/**
 * Requests whose only fault is a number storage cannot hold (contract §11: DynamoDB keeps 38
 * significant digits within about 1e-130..9.99e125, and the document client refuses anything
 * beyond ±(2^53−1)), put at every number member of a route's body schema and inside its open
 * members (meta_data, members a loose object keeps), over the route's accepted seed request.
 */
import fc from 'fast-check';
import type { RouteDef } from '../../../shared/route-def';
import { unstorable } from '../../../shared/schemas/storable';
import { concretePath, queryString, type BaseRequest } from './cases';
import { fieldsOf, unwrap } from './zod-walk';

/**
 * Routes whose body is kept as DynamoDB attributes: every such number must be refused with 400
 * naming it. The others (API definitions and templates are stored compressed) may take it.
 */
export const STORED_AS_ATTRIBUTES = [
  'POST /gw/keys/create',
  'POST /admin/org/keys',
  'PUT /gw/org/keys/{orgID}',
  'PUT /api/apis/{apiID}/keys/{keyRef}',
  'POST /gw/policies',
  'PUT /gw/policies/{policyID}',
  'POST /admin/policies/import',
  'POST /gw/oauth/clients/create',
  'PUT /gw/oauth/clients/{apiID}/{clientID}',
  'POST /admin/organisations',
  'POST /admin/organisations/import',
  'PUT /admin/organisations/{orgID}',
  'POST /gw/analytics',
  'POST /api/keys',
  'PUT /api/keys/{keyHash}',
  'POST /api/portal/policies',
  'PUT /api/portal/policies/{policyID}',
  'POST /api/apis/oauth/{apiID}',
  'PUT /api/apis/oauth/{apiID}/{clientID}',
];

/** The edges of IEEE doubles and of DynamoDB's range, every one unstorable. */
const EDGES = [
  1e308,
  -1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  2 ** 53,
  9007199254740994,
  -(2 ** 53) - 2,
  1e126,
  9.99e125,
  -1e200,
  1e20,
  1e-131,
  -1e-131,
  5e-324,
  -5e-324,
  2.2250738585072014e-308,
  1e-300,
];

/** Any finite double storage cannot hold, for fast-check to draw from besides the edges. */
const unstorableDouble = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => unstorable(n) !== undefined);

export interface NumberCase {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Where the number is, as the 400 must name it (`body.rate`, `body.meta_data.deep.0.n`). */
  path: string;
  number: number;
}

type Json = any;

/** `base` with `value` at `path`; record keys ("k") and array items ("0") follow what the base holds. */
function withNumberAt(base: Json, path: string[], value: unknown): { body: Json; path: string[] } | undefined {
  const root = structuredClone(base ?? {});
  let cur = root;
  const real: string[] = [];
  for (let i = 0; i < path.length; i++) {
    let k = path[i]!;
    if (cur === null || typeof cur !== 'object') return undefined;
    if (k === 'k' && !Array.isArray(cur)) k = Object.keys(cur)[0] ?? 'k';
    real.push(k);
    if (i === path.length - 1) cur[k] = value;
    else {
      if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = path[i + 1] === '0' ? [] : {};
      cur = cur[k];
    }
  }
  return { body: root, path: real };
}

const isLoose = (s: unknown) => (unwrap(s as never).core as Json)._zod.def.catchall?._zod.def.type === 'unknown';

/** Cases for every number member and open member of the route's body, three numbers each. */
export function numberCases(route: RouteDef, base: BaseRequest, seed: number): NumberCase[] {
  if (!route.body) return [];
  const fields = fieldsOf(route.body);
  const targets: string[][] = fields.filter((f) => f.leaf.kind === 'number').map((f) => f.path);
  // Numbers deep inside open members, and as a member a loose object keeps.
  for (const f of fields.filter((x) => x.leaf.kind === 'unknown' || (x.leaf.kind === 'record' && /meta/.test(x.path.join('.'))))) {
    targets.push([...f.path, 'deep', '0', 'n']);
  }
  if (isLoose(route.body)) targets.push(['x_extra_number']);
  const drawn = fc.sample(unstorableDouble, { seed, numRuns: targets.length });
  const url = concretePath(route.path, base.params) + queryString(base.query);
  const headers = { 'content-type': base.body?.contentType ?? (route.contentTypes ?? ['application/json'])[0]! };
  return targets.flatMap((path, i) =>
    [EDGES[(2 * i) % EDGES.length]!, EDGES[(2 * i + 1) % EDGES.length]!, drawn[i]!].flatMap((n) => {
      const placed = withNumberAt(base.body?.value, path, n);
      return placed ? [{ url, headers, body: JSON.stringify(placed.body), path: ['body', ...placed.path].join('.'), number: n }] : [];
    }),
  );
}
