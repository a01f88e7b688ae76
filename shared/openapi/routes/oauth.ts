import type { oauthRoutes } from '../../route-groups/oauth';
import type { GroupDocs } from '../route-doc';

const storable = 'Every number of meta_data is stored and must fit storage (contract §11).';

export const oauthDocs: GroupDocs<typeof oauthRoutes> = {
  oauthCreate: {
    description: `The secret is generated (64 hex), answered this once and kept as a SHA-256 hash; client_id is generated unless given. ${storable}`,
    success: 'OAuth client created, with its secret (shown this once)',
    etag: true,
    answers: {
      400: 'The policy does not grant the API',
      409: 'The client_id is taken',
      422: 'The API or the policy does not exist',
    },
  },
  oauthUpdate: {
    description: `api_id and client_id, when sent, must be the path's; the secret never changes (both rules between path or stored value and body). ${storable}`,
    success: 'OAuth client updated (without its secret)',
    etag: true,
    answers: {
      400: "The policy does not grant the API, the body names another API or client than the path, or another secret",
      404: 'No such API or client',
      422: 'The policy does not exist',
    },
  },
  oauthList: { description: 'One plain array, without secrets.', success: "The API's OAuth clients", answers: { 404: 'No such API' } },
  oauthDelete: { description: 'Deletes one client of the API.', success: 'OAuth client deleted; key is its id', answers: { 404: 'No such API or client' } },
};
