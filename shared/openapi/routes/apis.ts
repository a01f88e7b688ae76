import type { apisRoutes } from '../../route-groups/apis';
import type { GroupDocs } from '../route-doc';

const versions =
  'With base_api_id the API becomes a version of that base (it must exist, and new_version_name is then required: 422), ' +
  'both written in one transaction.';
const body = { $ref: '#/components/schemas/OasWriteBody' };
/** Any route that reads a stored definition (README "Limits"). */
export const STORED_TOO_LARGE = 'a definition this route reads was stored larger than any read decompresses (before the 12 MB limit): the message names it';
const onRead = (when?: string) => (when ? `${when}; or ${STORED_TOO_LARGE}` : `A stored definition is too large to read: ${STORED_TOO_LARGE}`);

export const apisDocs: GroupDocs<typeof apisRoutes> = {
  apisList: {
    description: "Listing entries of the caller's organisation's APIs: the classic definition, and the OpenAPI document of OAS APIs.",
    success: 'A page of API listing entries',
    answers: { 409: onRead() },
  },
  oasCreate: {
    description:
      `${versions} The API's organisation is x-gw-api-gateway.info.orgId; a blank info.id gets 32 lowercase hex. Each ` +
      '(custom domain, listen path) belongs to one API across the installation.',
    success: 'API created; key is its api_id',
    body,
    answers: {
      409: onRead('The api_id, database id or listen path is taken'),
      422: 'info.orgId names no organisation, an event handler names an unknown webhook, the base API does not exist, or new_version_name is missing',
    },
  },
  oasUpdate: {
    description: `Replaces the whole definition; a body whose info.id is not the path's api_id is 400 (a rule between path and body). ${versions}`,
    success: 'API replaced; key is its api_id',
    body,
    answers: {
      400: 'The body names another api_id than the path',
      404: 'No such API',
      409: onRead('The listen path is taken by another API'),
      422: 'The API moves to an info.orgId that names no organisation, an event handler names an unknown webhook, the base API does not exist, or new_version_name is missing',
    },
  },
  oasGet: {
    description: 'Classic APIs are 404 here (GET /gw/apis/{apiID} reads every API).',
    success: 'The OpenAPI document with x-gw-api-gateway (without it for mode=public)',
    etag: true,
    answers: { 404: 'No such OAS API', 409: onRead() },
  },
  classicCreate: {
    description: 'A blank api_id gets 32 lowercase hex. Each (custom domain, listen path) belongs to one API across the installation.',
    success: 'API created; key is its api_id',
    answers: { 409: onRead('The api_id or the listen path is taken'), 422: 'org_id names no organisation, or an event handler names an unknown webhook' },
  },
  classicGet: {
    description: 'OAS APIs are converted by the same mapping that converts classic ones back.',
    success: 'The classic definition',
    etag: true,
    headers: ['X-Gw-Base-Api-Id'],
    answers: { 404: 'No such API', 409: onRead() },
  },
  apisDelete: {
    description: 'Deletes the API, its stored parts and its OAuth clients (at most 50) in one transaction.',
    success: 'API deleted; key is its api_id',
    answers: { 404: 'No such API', 409: onRead('A base that still has versions, or an API with more than 50 OAuth clients') },
  },
};
