import type * as z from 'zod';
import { BadRequest, type ErrorDetail } from '../errors';
import { memberPath } from '../parsing';

function issuesOf(part: string, error: z.ZodError): ErrorDetail[] {
  return error.issues.map((i) => ({
    path: memberPath([part, ...i.path]),
    message: i.message,
  }));
}

/**
 * Validates path parameters, query and body together, so one answer lists every problem with a
 * readable path such as `body.method` or `params.apiID`.
 */
export async function validateParts(
  schemas: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType },
  input: { params: unknown; query: unknown; body: unknown },
): Promise<{ params: unknown; query: unknown; body: unknown }> {
  const details: ErrorDetail[] = [];
  const out: Record<string, unknown> = { params: input.params, query: input.query, body: input.body };
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = schemas[part];
    if (!schema) continue;
    // Async: a refinement may load what it needs on first use (the RE2 engine of allowed_urls).
    const r = await schema.safeParseAsync(input[part]);
    if (r.success) out[part] = r.data;
    else details.push(...issuesOf(part, r.error));
  }
  if (details.length) {
    // A rule a body and the objects inside it both hold (an import's storage rules) reports once.
    const seen = new Set<string>();
    const unique = details.filter((d) => {
      const k = `${d.path}\n${d.message}`;
      return !seen.has(k) && Boolean(seen.add(k));
    });
    const first = unique[0]!;
    const more = unique.length > 1 ? ` (and ${unique.length - 1} more)` : '';
    throw new BadRequest(`Invalid request: ${first.path}: ${first.message}${more}`, unique.slice(0, 50));
  }
  return out as { params: unknown; query: unknown; body: unknown };
}
