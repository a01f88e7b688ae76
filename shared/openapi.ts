import * as z from 'zod';
import { routeList } from './routes';
import type { RouteDef } from './route-def';
import { statusEnvelopeSchema } from './schemas/common';

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  // Transforms (query booleans) have no JSON Schema; their input side is documented instead.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

const SECURITY: Record<string, Json> = {
  dashboard: { type: 'http', scheme: 'bearer', description: 'Dashboard access key issued by POST /admin/users' },
  gateway: { type: 'apiKey', in: 'header', name: 'X-Gw-Authorization', description: 'Gateway deployment secret' },
  admin: { type: 'apiKey', in: 'header', name: 'Admin-Auth', description: 'Admin deployment secret' },
};

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Malformed JSON or failed validation',
  '401': 'Missing or wrong credential',
  '404': 'Unknown object (or another organisation’s)',
  '409': 'Duplicate id or unique field',
  '412': 'If-Match does not name the current version',
  '413': 'Body over 5 MB, or an object larger than DynamoDB stores (400 KB an item)',
  '415': 'Content-Type not accepted',
  '422': 'Reference to an object that does not exist, or an Idempotency-Key or batch_id reused with another body',
};

function parameters(r: RouteDef): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [['path', r.params], ['query', r.query]] as const) {
    if (!schema) continue;
    const js = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, s] of Object.entries(js.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: s });
    }
  }
  if (r.idempotent) {
    out.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
  }
  if (r.etag) out.push({ name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } });
  return out;
}

function operation(r: RouteDef & { name: string }): Json {
  const errorSchema =
    r.group === 'gateway'
      ? { type: 'object', properties: { status: { const: 'error' }, message: { type: 'string' }, errors: { type: 'array' } } }
      : jsonSchema(statusEnvelopeSchema, 'output');
  const responses: Json = {
    '200': { description: 'Success', content: { 'application/json': { schema: jsonSchema(r.result, 'output') } } },
  };
  for (const [code, description] of Object.entries(ERROR_STATUSES)) {
    if (code === '401' && r.group === 'public') continue;
    responses[code] = { description, content: { 'application/json': { schema: errorSchema } } };
  }
  const op: Json = {
    operationId: r.name,
    summary: r.summary,
    tags: [r.group],
    parameters: parameters(r),
    responses,
    security: r.group === 'public' ? [] : [{ [r.group]: [] }],
  };
  if (r.body || r.bodyKind === 'raw') {
    const types = r.contentTypes ?? ['application/json'];
    const schema = r.body ? jsonSchema(r.body, 'input') : { type: 'string' };
    op.requestBody = { required: true, content: Object.fromEntries(types.map((t) => [t, { schema }])) };
  }
  return op;
}

let cached: Json | undefined;

/** OpenAPI 3.1 document of every route of the table, generated from its Zod schemas. */
export function openApiDocument(): Json {
  if (cached) return cached;
  const paths: Record<string, Json> = {};
  for (const r of routeList) {
    (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Gateway management service',
      version: '0.1.0',
      description: 'Management interface of an API gateway and its dashboard.',
    },
    components: { securitySchemes: SECURITY },
    paths,
  };
  return cached;
}
