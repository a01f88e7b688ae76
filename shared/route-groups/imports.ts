/**
 * API definitions that arrive as documents on the dashboard: the OpenAPI import (JSON, YAML or a
 * URL, optionally over a template) and the streams patch. Apart from the other API routes so
 * those functions never build the import's schemas, and these never the classic ones. Part of
 * the route table (shared/routes.ts).
 */
import { route, routeGroup } from '../route-builders';
import { SHARED_CAUSES as causes, type RouteDef } from '../route-def';
import { okIdPairSchema, okNullSchema } from '../schemas/common';
import { importFlagsQuerySchema, importQuerySchema } from '../schemas/import';
import { STREAMS_MEDIA_TYPES, streamsBodySchema } from '../schemas/streams';

/** The document's example import body. */
const example = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  servers: [{ url: 'https://pets.example.com/v1' }],
  paths: { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } } } },
};
const yaml = { schema: { type: 'string', description: 'The document as YAML' } };
const listenPathTaken = 'The listen path is taken (the message says to pass listenPath)';
/** What the query flags and the allowed upstreams refuse, on both routes. */
const flags =
  'an upstream outside UPSTREAM_ALLOWED_HOSTS, authentication=true without security schemes in the document, ' +
  'a resulting x-gw-api-gateway that breaks its schema';

export const oasImport = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/apis/oas/import',
    group: 'dashboard',
    access: 'write',
    permission: 'apis',
    idempotent: true,
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: [
      'access_key',
      'api',
      'api_db_id',
      'asset',
      'asset_custom_id',
      'domain_grant',
      'hook',
      'idempotency',
      'listen_path',
      'org',
      'org_limit',
      'policy',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    bodyKind: 'raw',
    contentTypes: ['application/json', 'application/x-yaml', 'application/yaml', 'text/yaml', 'text/x-yaml'],
    summary: 'Import an OpenAPI document, JSON, YAML or {"url"}; Meta is the new id, ID the api_id',
    description:
      'Generated defaults: info.name is the title, the API is active, the listen path is listenPath else /<slug>/ (strip on; the slug ' +
      'is info.title lower-cased, each run of characters other than a-z and 0-9 one -, trimmed of -, at most 64, api when empty; listen ' +
      'paths are unique across the installation, so a taken one is 409 asking for listenPath), the upstream is ' +
      'upstreamURL else the first server URL with its variables at their defaults (none usable: 400). {"url": ...} fetches the document: ' +
      'http or https only, no redirects, 5 s, 5 MB, never from a loopback, private, link-local or metadata address. A templateID merges ' +
      "the caller's template under the document. Versions link as for POST /gw/apis/oas.",
    success: 'API created; Meta is its database id, ID its api_id',
    statuses: {
      400:
        'An invalid OpenAPI document (the validator\'s messages), one that carries x-gw-api-gateway, a {"url"} that cannot be fetched (not public, ' +
        `unreachable, slow, redirected, not 200 or over 5 MB), no usable upstream, ${flags}, or ${causes.handlerLimits}`,
      409: `${listenPathTaken}, ${causes.versionNameTaken}, or ${causes.storedTooLarge}`,
      413: 'The YAML document expands past 5 MB of JSON, or the document merged with its template is over 5 MB',
      422:
        "The templateID, a version API, a policy or a webhook the definition names is not the caller organisation's (or does not exist), " +
        `or ${causes.badBase}`,
    },
    query: importQuerySchema,
    result: okIdPairSchema,
    // The validator reads its JSON schemas from its own package directory at run time; yaml, which
    // it depends on, stays outside too, so the function ships it once (beside the bundle).
    nodeModules: ['@seriousme/openapi-schema-validator', 'yaml'],
    doc: {
      requestBody: {
        required: true,
        description: 'An OpenAPI 3.x document (JSON or YAML) without x-gw-api-gateway, or {"url": ...} to fetch one',
        content: {
          'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/ImportDocument' }, { $ref: 'input:ImportUrl' }] }, example },
          'application/x-yaml': yaml,
          'application/yaml': yaml,
          'text/yaml': yaml,
          'text/x-yaml': yaml,
        },
      },
    },
  }))();

export const streamsPatch = /* @__PURE__ */ (() =>
  route({
    method: 'PATCH',
    path: '/api/apis/streams/{apiID}',
    group: 'dashboard',
    access: 'write',
    permission: 'apis',
    etag: true,
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
    tableEntities: [
      'access_key',
      'api',
      'api_db_id',
      'domain_grant',
      'hook',
      'listen_path',
      'org_limit',
      'policy',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    contentTypes: STREAMS_MEDIA_TYPES,
    summary: 'Patch a streams API (application/vnd.gw.streams.oas or its +json form)',
    description:
      "Replaces the API from an OpenAPI document carrying x-gw-api-gateway and x-gw-streaming.streams. The base's version list is " +
      'kept whatever the body says. Query flags as for the import.',
    success: 'API updated',
    statuses: {
      400: `No x-gw-api-gateway or no x-gw-streaming.streams, ${flags}, or ${causes.handlerLimits}`,
      404: "No such API in the caller's organisation",
      409: `${listenPathTaken}, or ${causes.storedTooLarge}`,
      422: "A policy or a webhook the definition names is not the caller organisation's (or does not exist)",
    },
    query: importFlagsQuerySchema,
    body: streamsBodySchema,
    result: okNullSchema,
  }))();

export const importsRoutes = /* @__PURE__ */ (() =>
  routeGroup('imports', {
    oasImport,
    streamsPatch,
  }))() satisfies Record<string, RouteDef>;
