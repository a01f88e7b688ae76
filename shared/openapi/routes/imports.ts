import type { importsRoutes } from '../../route-groups/imports';
import type { GroupDocs } from '../route-doc';
import { STORED_TOO_LARGE } from './apis';

const example = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  servers: [{ url: 'https://pets.example.com/v1' }],
  paths: { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } } } },
};

export const importsDocs: GroupDocs<typeof importsRoutes> = {
  oasImport: {
    description:
      'Generated defaults: info.name is the title, the API is active, the listen path is listenPath else /<slug>/ (strip on; the slug is info.title lower-cased, each run of characters other than a-z and 0-9 one -, trimmed of -, at most 64, api when empty; listen paths are unique across the installation, so a taken one is 409 asking for listenPath), the upstream is ' +
      'upstreamURL else the first server URL with its variables at their defaults (none usable: 400). {"url": ...} fetches the document: ' +
      'http or https only, no redirects, 5 s, 5 MB, never from a loopback, private, link-local or metadata address. A templateID merges ' +
      "the caller's template under the document. Versions link as for POST /gw/apis/oas.",
    success: 'API created; Meta is its database id, ID its api_id',
    requestBody: {
      required: true,
      description: 'An OpenAPI 3.x document (JSON or YAML) without x-gw-api-gateway, or {"url": ...} to fetch one',
      content: {
        'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/ImportDocument' }, { $ref: 'input:ImportUrl' }] }, example },
        'application/x-yaml': { schema: { type: 'string', description: 'The document as YAML' } },
        'application/yaml': { schema: { type: 'string', description: 'The document as YAML' } },
        'text/yaml': { schema: { type: 'string', description: 'The document as YAML' } },
        'text/x-yaml': { schema: { type: 'string', description: 'The document as YAML' } },
      },
    },
    answers: {
      400: 'An invalid OpenAPI document (the validator\'s messages), one that carries x-gw-api-gateway, no usable upstream, or an upstream outside UPSTREAM_ALLOWED_HOSTS',
      409: `The listen path is taken (the message says to pass listenPath); or ${STORED_TOO_LARGE}`,
      422: "The templateID, base API, a version API or a policy the definition names is not the caller organisation's, or new_version_name is missing",
    },
  },
  streamsPatch: {
    description:
      'Replaces the API from an OpenAPI document carrying x-gw-api-gateway and x-gw-streaming.streams. The base\'s version list is ' +
      'kept whatever the body says. Query flags as for the import.',
    success: 'API updated',
    answers: {
      400: 'An upstream outside UPSTREAM_ALLOWED_HOSTS',
      404: "No such API in the caller's organisation",
      409: `The listen path is taken (the message says to pass listenPath); or ${STORED_TOO_LARGE}`,
      422: "A policy the definition names is not the caller organisation's",
    },
  },
};
