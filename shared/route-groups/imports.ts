/**
 * API definitions that arrive as documents on the dashboard: the OpenAPI import (JSON, YAML or a
 * URL, optionally over a template) and the streams patch. Apart from the other API routes so
 * those functions never build the import's schemas, and these never the classic ones. Part of
 * the route table (shared/routes.ts).
 */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdPairSchema, okNullSchema } from '../schemas/common';
import { importQuerySchema } from '../schemas/import';
import { STREAMS_MEDIA_TYPES, streamsBodySchema, streamsQuerySchema } from '../schemas/streams';

export const importsRoutes = {
  oasImport: route({
    method: 'POST', path: '/api/apis/oas/import', group: 'dashboard', entry: 'functions/imports/oas-import.ts', access: 'write', permission: 'apis',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    idempotent: true, bodyKind: 'raw', contentTypes: ['application/json', 'application/x-yaml', 'application/yaml', 'text/yaml', 'text/x-yaml'],
    summary: 'Import an OpenAPI document, JSON, YAML or {"url"}; Meta is the new id, ID the api_id; 415 other types, 422 a templateID, base, version API or policy that is not the caller organisation\'s, 409 listen path taken',
    query: importQuerySchema, result: okIdPairSchema,
    // The validator reads its JSON schemas from its own package directory at run time; yaml, which
    // it depends on, stays outside too, so the function ships it once (beside the bundle).
    nodeModules: ['@seriousme/openapi-schema-validator', 'yaml'],
  }),
  streamsPatch: route({
    method: 'PATCH', path: '/api/apis/streams/{apiID}', group: 'dashboard', entry: 'functions/imports/streams-patch.ts', access: 'write', permission: 'apis',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    etag: true, contentTypes: STREAMS_MEDIA_TYPES,
    summary: 'Patch a streams API (application/vnd.gw.streams.oas or its +json form); 415 other media types, 400 without x-gw-api-gateway or x-gw-streaming.streams, 404 unknown API, 422 a policy that is not the caller organisation\'s, 409 listen path taken',
    query: streamsQuerySchema, body: streamsBodySchema, result: okNullSchema,
  }),
} satisfies Record<string, RouteDef>;
