/** Public routes: the health check and this service's OpenAPI document. Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { looseObject } from '../schemas/common';

export const healthSchema = /* @__PURE__ */ (() => z.object({ status: z.enum(['pass', 'fail']), description: z.string() }))();
/** The document /openapi.json answers (its own schema is OpenAPI's). */
export const openApiDescriptionSchema = /* @__PURE__ */ (() => z.looseObject({ openapi: z.string(), info: looseObject, paths: looseObject }))();

export const hello = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/hello',
    group: 'public',
    access: 'read',
    tableActions: ['GetItem'],
    tableEntities: ['health'],
    summary: 'Health check: pass when storage answers, fail when not',
    description: 'Needs no credential. Reads one item of the table to tell whether storage answers.',
    success: 'Storage answers (status pass)',
    statuses: { 503: 'Storage does not answer (status fail)' },
    result: healthSchema,
    doc: { models: { 503: 'Health' } },
  }))();

export const openapi = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/openapi.json',
    group: 'public',
    access: 'read',
    tableActions: [],
    tableEntities: [],
    summary: 'This OpenAPI 3.1 document, generated from the route table',
    description:
      'Needs no credential. The document is generated from the route table and its Zod schemas, never written by hand. ' +
      'It is about 1 MB as JSON: sent with Accept-Encoding br or gzip, it comes compressed (about 45 KB), compressed once when the function was built.',
    success: 'This document, compressed (br, gzip) when the request accepts it',
    successHeaders: ['Content-Encoding', 'Vary'],
    result: openApiDescriptionSchema,
  }))();

export const systemRoutes = /* @__PURE__ */ (() =>
  routeGroup('system', {
    hello,
    openapi,
  }))() satisfies Record<string, RouteDef>;
