import * as z from 'zod';
import { idSchema, queryBool, shortText } from './common';
import { HTTP_URL_PATTERN } from './url-patterns';

const httpUrl = /* @__PURE__ */ (() =>
  z
    .string()
    .max(2048)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, 'must be an absolute http or https URL')
    .meta({ pattern: HTTP_URL_PATTERN }))();

/** A listen path is a URL path: starts with `/`, no spaces, query or fragment. */
const listenPath = /* @__PURE__ */ (() =>
  z
    .string()
    .max(1024)
    .regex(/^\/[^\s?#]*$/, 'must start with / and hold no spaces, ? or #'))();
/** Host name (the gateway also takes wildcards and a port, so only URL-breaking characters are refused). */
const customDomain = /* @__PURE__ */ (() =>
  z
    .string()
    .min(1)
    .max(253)
    .regex(/^[^\s/?#@]+$/, 'must be a host name such as api.example.com'))();
const versionName = /* @__PURE__ */ (() => shortText.trim().min(1, 'must not be empty').max(128))();

/** Flags shared by the import and the streams patch. */
export const importFlagsQuerySchema = /* @__PURE__ */ (() =>
  z.object({
    listenPath: listenPath.optional(),
    customDomain: customDomain.optional(),
    allowList: queryBool.optional(),
    validateRequest: queryBool.optional(),
    mockResponse: queryBool.optional(),
    authentication: queryBool.optional(),
  }))();
export type ImportFlagsQuery = z.infer<typeof importFlagsQuerySchema>;

/**
 * Version linking on import and on `POST/PUT /gw/apis/oas` and on the import. A missing
 * new_version_name with base_api_id is 422 (contract §8), so it is checked by linkVersion, not
 * here.
 */
export const versionQuerySchema = /* @__PURE__ */ (() =>
  z.object({
    base_api_id: idSchema.optional(),
    base_api_version_name: versionName.optional(),
    new_version_name: versionName.optional(),
    set_default: queryBool.optional(),
  }))();
export type VersionQuery = z.infer<typeof versionQuerySchema>;

/** Query of `POST /api/apis/oas/import`. */
export const importQuerySchema = /* @__PURE__ */ (() =>
  importFlagsQuerySchema.extend({
    upstreamURL: httpUrl.optional(),
    templateID: idSchema.optional(),
    ...versionQuerySchema.shape,
  }))();
export type ImportQuery = z.infer<typeof importQuerySchema>;

/** `{"url": "..."}` instead of a document: the service fetches it (shared/net/fetch-document.ts). */
export const importUrlBodySchema = /* @__PURE__ */ (() => z.object({ url: httpUrl }))();

/** The ImportOptions part of a parsed import (or streams) query. */
export function importOptionsOf(q: ImportFlagsQuery & { upstreamURL?: string }) {
  return {
    upstreamURL: q.upstreamURL,
    listenPath: q.listenPath,
    customDomain: q.customDomain,
    allowList: q.allowList,
    validateRequest: q.validateRequest,
    mockResponse: q.mockResponse,
    authentication: q.authentication,
  };
}
