/**
 * One success and one refusal for every route of the table, through any stage URL: the seeder
 * (test/support/world.ts) and the fuzz suite's success probes give each route an accepted request;
 * the first invalid input the fuzz generator makes for the route (body, query or path parameter)
 * gives its refusal, and a route that takes no input is refused without its credential. The two
 * public routes take neither input nor credential: another method on their path is refused (405,
 * by the `$default` route). Every answer is recorded in order, so two stages can be compared.
 */
import { routeList } from '../../../shared/routes';
import { concretePath, invalidCases, pathCases } from './cases';
import { RouteClient, routeKey } from '../../support/route-client';
import { seedEveryRoute, type SeededWorld } from '../../support/world';
import { baseOf, paramsOf, probeSuccesses } from './probe';

export interface Walk {
  answers: RouteClient['answers'];
  /** Route keys that never answered 2xx, and those never refused with a 4xx. */
  noSuccess: string[];
  noRefusal: string[];
  seedProblems: string[];
}

export async function walkRoutes(url: string, seed = 16): Promise<Walk> {
  const c = new RouteClient(url);
  let seeded: SeededWorld;
  try {
    // The same ids on every stage walked, so their answers compare request by request.
    seeded = await seedEveryRoute(c, 'walk', 'walk');
  } catch (e) {
    const all = routeList.map(routeKey);
    return { answers: c.answers, noSuccess: all, noRefusal: all, seedProblems: [(e as Error).message] };
  }
  await probeSuccesses(c, seeded);
  const refused = new Set<string>();
  for (const r of routeList) {
    const base = baseOf(c, seeded, r);
    const bad = (await invalidCases(r, base, seed, 1))[0] ?? pathCases(r, base, seed, 1)[0];
    let status: number;
    if (bad) status = (await c.send(r.method, bad.url, { headers: bad.headers, body: bad.body })).status;
    else if (r.group !== 'public')
      status = (
        await c.send(r.method, concretePath(r.path, paramsOf(seeded, r)), { headers: { authorization: '', 'x-gw-authorization': '', 'admin-auth': '' } })
      ).status;
    else status = (await c.send(r.method === 'POST' ? 'PUT' : 'POST', r.path)).status;
    if (status >= 400 && status < 500) refused.add(routeKey(r));
  }
  return {
    answers: c.answers.map((a) => ({ ...a, route: withParamNames(a.route, seeded) })),
    noSuccess: routeList.map(routeKey).filter((k) => !c.seen.get(k)?.ok),
    noRefusal: routeList.map(routeKey).filter((k) => !refused.has(k)),
    seedProblems: [],
  };
}

/**
 * An unmatched path is recorded as sent; the ids the stage generated itself (a hook's, a
 * delivery's) differ between two stages even with the same tag, so each seeded value is written
 * back as its parameter's name and the walks compare.
 */
function withParamNames(route: string, seeded: SeededWorld): string {
  const values = Object.entries(seeded.params)
    .filter(([, v]) => v.length >= 8)
    .sort(([, a], [, b]) => b.length - a.length);
  return values.reduce((r, [name, v]) => r.split(v).join(`{${name}}`), route);
}
