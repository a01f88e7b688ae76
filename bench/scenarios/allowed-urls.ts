/**
 * What a key's `allowed_urls` cost a check (docs/reference/limits.md): POST /gw/sessions/check by a key at
 * the limit (100 rules, close to 5,000 RE2 instructions) against a key without rules, warm (its
 * session and compiled rules cached) and cold (the first check after the stage's session cache
 * was emptied: an organisation-session write empties it in the local stage's one process),
 * allowed and refused (a repeated refusal writes nothing, so there the build of the rules shows
 * beside the session read).
 * Beside them, measured in this process on the matcher alone: the same rules tried one by one as
 * before, 1,100 rules (stored before the limit), and the worst rule shapes at the limit on two
 * 2,000-character paths.
 */
import { RE2JS } from 're2js';
import { urlAllowed } from '../../shared/domain/allowed-urls';
import { ALLOWED_URL_LIMITS } from '../../shared/limits';
import { apiAndKey, type Ctx } from '../lib/context';
import { call } from '../lib/http';
import { interleaved, percentile, round, type Row } from '../lib/stats';

const SCENARIO = 'allowed_urls';

/** 100 path rules as an API's endpoints would be written, together just under the program limit. */
const atLimit = () =>
  Array.from({ length: ALLOWED_URL_LIMITS.rules }, (_, i) => ({
    url: `^/api/v1/resource${i}/[0-9]+/items(?:/[a-z]+)?/sub${i}/?$`,
    methods: i % 3 === 0 ? ['GET', 'POST'] : ['GET'],
  }));

/** Shapes that make an RE2 automaton large (classes repeated, exponential sets), filled to the limits. */
const WORST: Record<string, (i: number) => string> = {
  'letters{48}': (i) => `\\pL{${48 - (i % 5)}}`,
  'any{48}z': (i) => `(?s:.){${48 - (i % 5)}}z`,
  // Ends in a class no literal prefilter can use, so the rules tried one by one cannot skip the path either.
  '(a|b)*a(a|b){n}[^ab/]': (i) => `(?:a|b)*a(?:a|b){${20 + (i % 20)}}[^ab/]`,
};

function fill(shape: (i: number) => string): string[] {
  const out: string[] = [];
  let program = 0;
  for (let i = 0; out.length < ALLOWED_URL_LIMITS.rules; i++) {
    const size = RE2JS.compile(shape(i)).programSize();
    if (program + size > ALLOWED_URL_LIMITS.program) break;
    program += size;
    out.push(shape(i));
  }
  return out;
}

/** Milliseconds of `f`, median of `n` runs. */
function ms(n: number, f: () => void): number {
  const times: number[] = [];
  for (let k = 0; k < n; k++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return percentile(times, 50);
}

/** Warm and cold matching of `rules` for `request`, and the same rules tried one by one (warm), in ms. */
function matching(rules: Array<{ url: string }>, request: { paths: string[]; method: string }) {
  // The first builds compile re2js itself (JIT): the cold figure is a build in a warm process.
  for (let k = 0; k < 5; k++) urlAllowed({ allowed_urls: rules }, request);
  const cold = ms(30, () => urlAllowed({ allowed_urls: rules }, request));
  const entry = { allowed_urls: rules };
  urlAllowed(entry, request);
  const warm = ms(300, () => urlAllowed(entry, request));
  const alone = rules.map((r) => RE2JS.compile(r.url));
  const oneByOne = ms(100, () => alone.some((re) => request.paths.some((p) => re.matcher(p).find())));
  return { cold: round(cold, 2), warm: round(warm, 4), oneByOne: round(oneByOne, 4) };
}

/** The matcher alone, in this process: at the limit, past it (1,100 rules stored before it), and the worst shapes. */
function inProcess(): Record<string, number | string> {
  const path = '/books/api/v1/resource97/123/items/abc/nope';
  // As the external authorization asks: the path as sent and the path within the API.
  const request = { paths: [path, path.slice('/books'.length)], method: 'GET' };
  const rules = atLimit();
  const limit = matching(rules, request);
  const stored = matching(
    Array.from({ length: 1100 }, (_, i) => ({ url: `^/api/v1/resource${i}/[0-9]+/items(?:/[a-z]+)?/sub${i}/?$` })),
    request,
  );
  const out: Record<string, number | string> = {
    program: rules.reduce((sum, r) => sum + RE2JS.compile(r.url).programSize(), 0),
    matcher_cold_ms: limit.cold,
    matcher_warm_ms: limit.warm,
    one_by_one_warm_ms: limit.oneByOne,
    stored_1100_matcher_cold_ms: stored.cold,
    stored_1100_matcher_warm_ms: stored.warm,
    stored_1100_one_by_one_warm_ms: stored.oneByOne,
  };
  // Paths a key holder chooses to meet its own rules' worst: a run of letters, and a/b at random
  // (an exponential set's automaton never settles, so matching falls back to RE2's NFA).
  let seed = 7;
  const coin = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed & 0x100 ? 'a' : 'b';
  };
  const random = `/${Array.from({ length: 2000 }, coin).join('')}`;
  const letters = `/${'a'.repeat(2000)}`;
  for (const [name, shape] of Object.entries(WORST)) {
    const urls = fill(shape);
    const worstRequest = { paths: [random, letters], method: 'GET' };
    const entry = { allowed_urls: urls.map((url) => ({ url })) };
    out[`worst_${name}_rules`] = urls.length;
    out[`worst_${name}_cold_ms`] = round(
      ms(3, () => urlAllowed({ allowed_urls: entry.allowed_urls }, worstRequest)),
      1,
    );
    urlAllowed(entry, worstRequest);
    out[`worst_${name}_warm_ms`] = round(
      ms(5, () => urlAllowed(entry, worstRequest)),
      2,
    );
    const alone = urls.map((url) => RE2JS.compile(url));
    out[`worst_${name}_one_by_one_warm_ms`] = round(
      ms(5, () => alone.some((re) => worstRequest.paths.some((p) => re.matcher(p).find()))),
      2,
    );
  }
  return out;
}

export async function allowedUrls(ctx: Ctx, warmSamples = 500, coldSamples = 60): Promise<Row[]> {
  const { orgId } = await ctx.tenant('bench-urls');
  const unlimited = { quota_max: -1 };
  const ruled = await apiAndKey(ctx, orgId, unlimited);
  const rights = (apiId: string, allowed_urls?: unknown) => ({
    [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], ...(allowed_urls ? { allowed_urls } : {}) },
  });
  const put = await call(ctx.stage.url, 'POST', '/gw/keys/create', ctx.gw, { org_id: orgId, ...unlimited, access_rights: rights(ruled.apiId, atLimit()) });
  if (put.status !== 200) throw new Error(`key at the limit: ${put.status} ${JSON.stringify(put.body).slice(0, 300)}`);
  const atLimitKey = put.body.key as string;
  const plain = await apiAndKey(ctx, orgId, unlimited);
  /** A key of another API: refused for want of access, with the same refusal event as a path refusal. */
  const stranger = await apiAndKey(ctx, orgId, unlimited);

  // A late rule matches; the refused path fails every rule only at its end.
  const allowedPath = '/api/v1/resource97/123/items/abc/sub97';
  const refusedPath = '/api/v1/resource97/123/items/abc/nope';
  const check = async (key: string, apiId: string, path: string, expect: number) => {
    const r = await call(ctx.stage.url, 'POST', '/gw/sessions/check', ctx.gw, { key, api_id: apiId, path, method: 'GET' });
    if (r.status !== expect) throw new Error(`check ${path}: ${r.status}, expected ${expect}: ${JSON.stringify(r.body)}`);
    return r.ms;
  };
  const withRules = () => check(atLimitKey, ruled.apiId, allowedPath, 200);
  const without = () => check(plain.key, plain.apiId, allowedPath, 200);
  const refusedByRules = () => check(atLimitKey, ruled.apiId, refusedPath, 403);
  const refusedNoAccess = () => check(stranger.key, ruled.apiId, refusedPath, 403);

  await interleaved(100, withRules, without);
  const warm = await interleaved(warmSamples, withRules, without);
  await interleaved(50, refusedByRules, refusedNoAccess);
  const refused = await interleaved(warmSamples, refusedByRules, refusedNoAccess);
  // Cold: writing the organisation's session empties the stage's session cache (so does any key or
  // policy update, not a key create) before each timed check.
  let flushes = 0;
  const emptied = (f: () => Promise<number>) => async () => {
    const w = await call(ctx.stage.url, 'PUT', `/gw/org/keys/${orgId}`, ctx.gw, { quota_max: -1, alias: `flush-${++flushes}` });
    if (w.status !== 200) throw new Error(`flush write ${w.status} ${JSON.stringify(w.body)}`);
    return f();
  };
  const cold = await interleaved(coldSamples, emptied(withRules), emptied(without));
  // A repeated refusal writes nothing (its event is recorded once), so the build shows beside the session read.
  const coldRefused = await interleaved(coldSamples, emptied(refusedByRules), emptied(refusedNoAccess));

  const p50 = (xs: number[]) => percentile(xs, 50);
  const local = inProcess();
  const detail = {
    rules: ALLOWED_URL_LIMITS.rules,
    warm_p50_ms_with_rules: round(p50(warm.a)),
    warm_p50_ms_without: round(p50(warm.b)),
    refused_p50_ms_by_rules: round(p50(refused.a)),
    refused_p50_ms_no_access: round(p50(refused.b)),
    cold_p50_ms_with_rules: round(p50(cold.a)),
    cold_p50_ms_without: round(p50(cold.b)),
    cold_refused_p50_ms_by_rules: round(p50(coldRefused.a)),
    cold_refused_p50_ms_no_access: round(p50(coldRefused.b)),
    cold_refused_extra_p50_ms: round(p50(coldRefused.a) - p50(coldRefused.b)),
    warm_samples: warmSamples,
    cold_samples: coldSamples,
    ...local,
  };
  const warmRatio = round(p50(warm.a) / p50(warm.b));
  const refusedRatio = round(p50(refused.a) / p50(refused.b));
  const coldRatio = round(p50(cold.a) / p50(cold.b));
  const coldRefusedRatio = round(p50(coldRefused.a) / p50(coldRefused.b));
  return [
    {
      scenario: SCENARIO,
      measured: 'warm check, key at the limit (100 rules) / key without rules, allowed, p50',
      value: warmRatio,
      target: '<= 1.2',
      pass: warmRatio <= 1.2,
      detail,
    },
    {
      scenario: SCENARIO,
      measured: 'warm check refused by the rules / refused for want of access, p50',
      value: refusedRatio,
      target: '<= 1.2',
      pass: refusedRatio <= 1.2,
      detail,
    },
    {
      scenario: SCENARIO,
      measured: 'cold check (session cache emptied), key at the limit / key without rules, allowed, p50',
      value: coldRatio,
      target: 'reported',
      pass: true,
      detail,
    },
    {
      scenario: SCENARIO,
      measured: 'cold check refused by the rules / cold check refused for want of access, p50',
      value: coldRefusedRatio,
      target: 'reported',
      pass: true,
      detail,
    },
  ];
}
