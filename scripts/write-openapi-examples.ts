/**
 * npm run openapi:examples -- <dir>: writes shared/openapi/examples.json, the document's examples,
 * from the e2e traffic a test run kept in <dir> (`TRAFFIC_DIR=<dir> npx vitest run test/e2e
 * test/after/openapi-traffic.test.ts`): per operation, the shortest JSON request the stage accepted
 * and the shortest answer of each status. They are real bodies, and the traffic check validates
 * every example against its schema, so they stay true. A request example must also be one a
 * default deployment takes (test/e2e/openapi-examples.test.ts sends each to such a stage): the
 * tests' receivers listen on 127.0.0.1 (ALLOW_PRIVATE_TARGETS=1), so a request naming a loopback,
 * private or metadata address, or one the route's schema refuses under the default settings, is
 * never chosen.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { openApiDocument } from '../shared/openapi/document';
import { routeList } from '../shared/routes';
import { targetRefusal } from '../shared/schemas/webhook-target';

interface Exchange {
  method: string;
  path: string;
  requestType?: string;
  requestBody?: string;
  status: number;
  body: string;
}

/** Longer bodies make poor examples; a route whose answers are all longer has none for that status. */
const MAX_CHARS = 1_500;
const dir = process.argv[2] ?? process.env.TRAFFIC_DIR;
if (!dir) throw new Error('usage: npm run openapi:examples -- <traffic dir>');
// The schemas judge webhook targets by this setting: judge as a default deployment does.
delete process.env.ALLOW_PRIVATE_TARGETS;

/** Every string of a JSON value. */
const stringsOf = (v: unknown): string[] => (typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(stringsOf) : []);

/** Whether a default deployment takes this request body: no URL to a non-public address, and the route's schema passes it. */
function takenByDefault(operationId: string, body: string): boolean {
  const value = JSON.parse(body) as unknown;
  if (stringsOf(value).some((s) => /^https?:\/\//i.test(s) && targetRefusal(s, false) !== undefined)) return false;
  const route = routeList.find((r) => r.name === operationId);
  return !route?.body || route.body.safeParse(value).success;
}

const api = new OpenAPIBackend({ definition: openApiDocument() as unknown as Document, quick: true });
await api.init();
const examples: Record<string, { request?: unknown; responses: Record<string, unknown> }> = {};
const shorter = (a: string | undefined, b: string) => a === undefined || b.length < a.length;
const chosen: Record<string, { request?: string; responses: Record<string, string> }> = {};
for (const file of readdirSync(dir)) {
  for (const x of (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { exchanges: Exchange[] }).exchanges) {
    const url = new URL(x.path, 'http://stage');
    const op = api.router.matchOperation({ method: x.method, path: url.pathname, headers: {}, query: Object.fromEntries(url.searchParams) });
    if (!op?.operationId || !(op.responses as Record<string, unknown>)[String(x.status)] || x.body.length > MAX_CHARS) continue;
    const c = (chosen[op.operationId] ??= { responses: {} });
    if (shorter(c.responses[x.status], x.body)) c.responses[x.status] = x.body;
    const json = x.requestBody !== undefined && /json/.test(x.requestType ?? '') && x.requestBody.length <= MAX_CHARS;
    if (x.status < 300 && json && shorter(c.request, x.requestBody!) && takenByDefault(op.operationId, x.requestBody!)) c.request = x.requestBody!;
  }
}
for (const name of Object.keys(chosen).sort()) {
  const c = chosen[name]!;
  const responses = Object.fromEntries(
    Object.entries(c.responses)
      .sort()
      .map(([s, b]) => [s, JSON.parse(b)]),
  );
  examples[name] = { ...(c.request !== undefined ? { request: JSON.parse(c.request) } : {}), responses };
}
writeFileSync(join('shared', 'openapi', 'examples.json'), `${JSON.stringify(examples, null, 1)}\n`);
console.log(`wrote shared/openapi/examples.json: ${Object.keys(examples).length} operations`);
