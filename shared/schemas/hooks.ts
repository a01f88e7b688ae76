import * as z from 'zod';
import { pageQuerySchema, shortText } from './common';
import { isHttpUrl } from '../domain/urls';

export const HOOK_METHODS = ['DELETE', 'GET', 'PUT', 'POST', 'PATCH'] as const;

/** RFC 9110 token characters: a header name outside them would be refused when the hook fires. */
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, 'must be a valid HTTP header name');
/** CR/LF in a value would let a stored hook smuggle extra headers into its calls. */
const headerValue = z.string().max(8192).regex(/^[^\r\n\0]*$/, 'must not contain line breaks');

/**
 * Webhook body of POST /api/hooks and PUT /api/hooks/{hookId} (spec "Webhook", 21, 22). PUT is a
 * full replace, so the same schema serves both: what is omitted takes its empty default.
 */
export const hookInputSchema = z.object({
  name: shortText.optional().default(''),
  method: z.enum(HOOK_METHODS, { error: `must be one of ${HOOK_METHODS.join(', ')}` }),
  target_path: z.string().max(2048).refine(isHttpUrl, 'must be an absolute http or https URL'),
  header_map: z.record(headerName, headerValue).optional().default({}),
  template_path: shortText.optional(),
  event_timeout: z.number().int().min(0).max(3600).optional(),
});
export type HookInput = z.infer<typeof hookInputSchema>;

/** A stored webhook as every read shows it. */
export const hookSchema = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  method: z.enum(HOOK_METHODS),
  target_path: z.string(),
  header_map: z.record(z.string(), z.string()),
  template_path: z.string().optional(),
  event_timeout: z.number().int().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
});
export type Hook = z.infer<typeof hookSchema>;

export const hookListQuerySchema = pageQuerySchema;
export const hookListSchema = z.object({
  hooks: z.array(hookSchema),
  pages: z.number().int(),
  next_cursor: z.string().optional(),
});
