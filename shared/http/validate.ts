import type { z } from 'zod';
import { BadRequest, type ErrorDetail } from '../errors';

function issuesOf(part: string, error: z.ZodError): ErrorDetail[] {
  return error.issues.map((i) => ({
    path: [part, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
}

/**
 * Validates path parameters, query and body together, so one answer lists every problem with a
 * readable path such as `body.method` or `params.apiID`.
 */
export function validateParts(
  schemas: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType },
  input: { params: unknown; query: unknown; body: unknown },
): { params: unknown; query: unknown; body: unknown } {
  const details: ErrorDetail[] = [];
  const out: Record<string, unknown> = { params: input.params, query: input.query, body: input.body };
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = schemas[part];
    if (!schema) continue;
    const r = schema.safeParse(input[part]);
    if (r.success) out[part] = r.data;
    else details.push(...issuesOf(part, r.error));
  }
  if (details.length) {
    const first = details[0]!;
    const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
    throw new BadRequest(`Invalid request: ${first.path}: ${first.message}${more}`, details.slice(0, 50));
  }
  return out as { params: unknown; query: unknown; body: unknown };
}
