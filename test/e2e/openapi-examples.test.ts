/**
 * Every request example of /openapi.json is one a default deployment takes (contract §1): each is
 * sent, as it is, to a stage started without ALLOW_PRIVATE_TARGETS and with the other settings at
 * their defaults, after making what it refers to (organisations, APIs, policies it names, and the
 * object its path names), and must succeed. Examples are recorded from the test suites, whose
 * receivers listen on 127.0.0.1; npm run openapi:examples keeps only requests a default
 * deployment takes, and this file proves the document it ships.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import { startStage, type Stage } from '../support/stage';
import { RouteClient } from '../support/route-client';
import { seedEveryRoute, type SeededWorld } from '../support/world';
import { oasDoc, rightsFor, uid } from '../support/fixtures';
import { concretePath } from '../hardening/support/cases';
import { paramsOf } from '../hardening/support/probe';

type Json = Record<string, any>;

/** Recorded ids that no stage can make again: the check's example names a clear key of the run it was recorded in. */
const SETUP_CANNOT_MAKE: Record<string, { status: number; why: string }> = {
  sessionsCheck: { status: 403, why: 'its key is a clear key of the recording run (UnknownKey is an answer, not a refused body)' },
};

let s: Stage;
let c: RouteClient;
let seeded: SeededWorld;
let doc: Json;
beforeAll(async () => {
  for (const name of ['ALLOW_PRIVATE_TARGETS', 'UPSTREAM_ALLOWED_HOSTS']) delete process.env[name];
  s = await startStage();
  c = new RouteClient(s.url);
  seeded = await seedEveryRoute(c, 'examples');
  doc = (await s.call('GET', '/openapi.json')).body;
}, 120_000);
afterAll(() => s?.close());

/** Every request example of the document, by operation. */
function requestExamples(): Array<{ name: string; method: string; path: string; type: string; example: unknown }> {
  const out = [];
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json)) {
      for (const [type, media] of Object.entries((op as Json).requestBody?.content ?? {})) {
        const m = media as Json;
        if (m.example !== undefined) out.push({ name: (op as Json).operationId, method: method.toUpperCase(), path, type, example: m.example });
        for (const e of Object.values(m.examples ?? {}))
          out.push({ name: (op as Json).operationId, method: method.toUpperCase(), path, type, example: (e as Json).value });
      }
    }
  }
  return out;
}

/** Values of `key` anywhere in a JSON value. */
const valuesOf = (v: unknown, key: string): unknown[] =>
  Array.isArray(v)
    ? v.flatMap((x) => valuesOf(x, key))
    : v !== null && typeof v === 'object'
      ? Object.entries(v).flatMap(([k, x]) => [...(k === key ? [x] : []), ...valuesOf(x, key)])
      : [];
const texts = (xs: unknown[]) => [...new Set(xs.filter((x): x is string => typeof x === 'string' && x !== ''))];

/** Makes what the example refers to; answers the path parameters to send it with. */
async function prepare(name: string, example: Json): Promise<Record<string, string>> {
  const w = seeded.world;
  const made = async (method: string, url: string, body: unknown) => {
    const a = await c.send(method, url, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(a.status === 200 || a.status === 409, `setup ${method} ${url}: ${a.status} ${a.text}`).toBe(true);
  };
  for (const id of texts([...valuesOf(example, 'org_id'), ...valuesOf(example, 'orgId')])) await made('POST', '/admin/organisations', { id });
  if (!['classicCreate', 'oasCreate'].includes(name) && typeof example.api_id === 'string' && example.api_id) {
    await made('POST', '/gw/apis', {
      api_id: example.api_id,
      name: 'example',
      org_id: w.orgId,
      proxy: { listen_path: `/${uid('ex')}/`, target_url: 'http://upstream.example' },
    });
  }
  // Policies a key applies: of the world's organisation (a dashboard key may apply only its own), granting its API.
  for (const id of texts(valuesOf(example, 'apply_policies').flat()))
    await made('POST', '/gw/policies', { id, org_id: w.orgId, access_rights: rightsFor(w.apiId) });
  const params = paramsOf(seeded, routeList.find((r) => r.name === name)!);
  if (name === 'policiesUpdate') {
    await made('POST', '/gw/policies', { id: example.id, org_id: w.orgId });
    params.policyID = example.id;
  }
  if (name === 'streamsPatch' || name === 'oasUpdate') {
    // The path must name the API the body names (else 400), or an API of its own.
    const gw = (example['x-gw-api-gateway'] ?? example) as Json;
    const id = (gw.info?.id as string | undefined) ?? uid('ex-oas');
    const api = oasDoc(id, w.orgId);
    api['x-gw-api-gateway'].server = { listenPath: { value: `/${uid('ex-before')}/`, strip: true } };
    await made('POST', '/gw/apis/oas', api);
    params.apiID = id;
  }
  return params;
}

describe('every request example of the document is taken by a default deployment', () => {
  it('has request examples to send', () => {
    expect(requestExamples().length).toBeGreaterThan(15);
  });

  it('sends each, as it is, after making what it refers to: 200 (the check: its answer, not a refusal of the body)', async () => {
    const failures: string[] = [];
    for (const x of requestExamples()) {
      const params = await prepare(x.name, x.example as Json);
      const body = typeof x.example === 'string' ? x.example : JSON.stringify(x.example);
      const a = await c.send(x.method, concretePath(x.path, params), { body, headers: { 'content-type': x.type } });
      const allowed = SETUP_CANNOT_MAKE[x.name]?.status ?? 200;
      if (a.status !== allowed) failures.push(`${x.name} (${x.type}) ${body.slice(0, 160)} -> ${a.status} ${a.text.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });
});
