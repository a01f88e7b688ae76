/** Public routes: the health check and this service's OpenAPI document. Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { looseObject } from '../schemas/common';

export const healthSchema = z.object({ status: z.enum(['pass', 'fail']), description: z.string() });
/** The document /openapi.json answers (its own schema is OpenAPI's). */
export const openApiDescriptionSchema = z.looseObject({ openapi: z.string(), info: looseObject, paths: looseObject });

export const systemRoutes = {
  hello: route({
    method: 'GET', path: '/hello', group: 'public', entry: 'functions/system/hello.ts', access: 'read',
    tableActions: ['GetItem'],
    summary: 'Health check: 200 pass when storage answers, 503 fail when not', result: healthSchema,
  }),
  openapi: route({
    method: 'GET', path: '/openapi.json', group: 'public', entry: 'functions/system/openapi.ts', access: 'read',
    tableActions: [],
    summary: 'This OpenAPI 3.1 document, generated from the route table', result: openApiDescriptionSchema,
  }),
} satisfies Record<string, RouteDef>;
