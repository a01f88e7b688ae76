import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../../shared/limits';
import { routeList } from '../../shared/routes';
import type { Ctx } from '../lib/context';
import { bundle, OUT_DIR } from '../lib/bundle';
import { call } from '../lib/http';
import { round, type Row } from '../lib/stats';

/** A valid OpenAPI 3.0 document of about `bytes` of JSON: many paths with parameters, bodies and examples. */
function bigDocument(bytes: number): string {
  const paths: Record<string, unknown> = {};
  const doc = { openapi: '3.0.3', info: { title: 'Bench import', version: '1.0.0' }, servers: [{ url: 'https://upstream.example.com/v1' }], paths };
  // Sized as it grows (stringifying the whole document each round would be quadratic).
  for (let i = 0, size = JSON.stringify(doc).length; size < bytes - 2_000; i++) {
    const path = `/resources${i}/{id}`;
    const item = {
      get: {
        operationId: `getResource${i}`,
        summary: `Read resource ${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } },
                example: { id: `r${i}`, n: i },
              },
            },
          },
        },
      },
      post: {
        operationId: `postResource${i}`,
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 64 } } } } },
        },
        responses: { '201': { description: 'Created' } },
      },
    };
    paths[path] = item;
    size += JSON.stringify(path).length + JSON.stringify(item).length + 2;
  }
  return JSON.stringify(doc);
}

/** POST /api/apis/oas/import of a generated ~5 MB document: time and peak RSS of the function alone. */
export async function importBig(ctx: Ctx): Promise<Row[]> {
  const route = routeList.find((r) => r.path === '/api/apis/oas/import');
  if (!route)
    return [
      { scenario: 'import', measured: 'POST /api/apis/oas/import', value: NaN, target: 'RSS < 300 MB', pass: false, detail: { note: 'route not built' } },
    ];
  const { dash } = await ctx.tenant('bench-import');
  const body = bigDocument(LIMITS.bodyBytes - 100_000);
  const docFile = join(OUT_DIR, 'import-doc.json');
  writeFileSync(docFile, body);
  const b = await bundle('import-bench', route.entry, [...((route as { nodeModules?: string[] }).nodeModules ?? [])]);
  // The function in a fresh process, invoked as Lambda would: its peak RSS is the memory it needs.
  const script = `
    import { readFileSync } from 'node:fs';
    const { handler } = await import(${JSON.stringify(b.file)});
    const body = readFileSync(${JSON.stringify(docFile)}, 'utf8');
    const event = { version: '2.0', routeKey: 'POST /api/apis/oas/import', rawPath: '/api/apis/oas/import',
      rawQueryString: 'listenPath=/bench-import-function/', queryStringParameters: { listenPath: '/bench-import-function/' },
      headers: { authorization: ${JSON.stringify(dash.authorization)}, 'content-type': 'application/json' }, body, isBase64Encoded: false,
      requestContext: { requestId: 'bench', timeEpoch: Date.now(),
        http: { method: 'POST', path: '/api/apis/oas/import', sourceIp: '127.0.0.1', protocol: 'HTTP/1.1', userAgent: 'bench' } } };
    const t = performance.now();
    const res = await handler(event, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 60000 });
    process.stdout.write(JSON.stringify({ status: res.statusCode, ms: performance.now() - t, rssMB: process.resourceUsage().maxRSS / 1024,
      body: String(res.body).slice(0, 300) }));
  `;
  const out = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
      env: { ...process.env, DYNAMODB_ENDPOINT: ctx.stage.endpoint, TABLE_NAME: ctx.stage.table, LOG_LEVEL: 'error', AWS_REGION: 'us-east-1' },
    }),
  ) as { status: number; ms: number; rssMB: number; body: string };
  // And once end to end through the stage, for the time a user waits (on its own listen path:
  // one API per path, and the function's import above holds another).
  const viaStage = await call(
    ctx.stage.url,
    'POST',
    '/api/apis/oas/import?listenPath=/bench-import-stage/',
    { ...dash, 'content-type': 'application/json' },
    body,
  );
  const detail = {
    document_bytes: body.length,
    function_status: out.status,
    function_ms: round(out.ms, 0),
    stage_status: viaStage.status,
    stage_ms: round(viaStage.ms, 0),
    ...(out.status !== 200 ? { function_body: out.body } : {}),
  };
  return [
    {
      scenario: 'import',
      measured: 'peak RSS of the import function, MB',
      value: round(out.rssMB, 0),
      target: '< 300',
      pass: out.rssMB < 300 && out.status === 200 && viaStage.status === 200,
      detail,
    },
  ];
}
