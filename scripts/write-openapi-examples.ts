/**
 * npm run openapi:examples -- <dir>: writes shared/openapi/examples.json, the document's examples,
 * from the e2e traffic a test run kept in <dir> (`TRAFFIC_DIR=<dir> npx vitest run test/e2e
 * test/after/openapi-traffic.test.ts`): per operation, the shortest JSON request the stage accepted
 * and the shortest answer of each status. They are real bodies, and the traffic check validates
 * every example against its schema, so they stay true.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { openApiDocument } from '../shared/openapi/document';

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
    if (x.status < 300 && json && shorter(c.request, x.requestBody!)) c.request = x.requestBody!;
  }
}
for (const name of Object.keys(chosen).sort()) {
  const c = chosen[name]!;
  const responses = Object.fromEntries(Object.entries(c.responses).sort().map(([s, b]) => [s, JSON.parse(b)]));
  examples[name] = { ...(c.request !== undefined ? { request: JSON.parse(c.request) } : {}), responses };
}
writeFileSync(join('shared', 'openapi', 'examples.json'), `${JSON.stringify(examples, null, 1)}\n`);
console.log(`wrote shared/openapi/examples.json: ${Object.keys(examples).length} operations`);
