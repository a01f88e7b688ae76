import type { keysRoutes } from '../../route-groups/keys';
import { GRANT_RULE } from '../components';
import type { GroupDocs } from '../route-doc';

const references = 'Every API in access_rights and every policy in apply_policies must exist';
const storable = 'Every number of the body, meta_data included, is stored and must fit storage (contract §11).';

export const keysDocs: GroupDocs<typeof keysRoutes> = {
  keysCreate: {
    description:
      `The service generates the key id (<org_id><32 hex>); the clear key is answered this once, only its hash is kept. ${references}. ` +
      `Each access_rights entry's api_id equals its map key. ${storable}`,
    success: 'Key created; key is the clear key (shown this once), key_hash its hash',
    bodyRule: GRANT_RULE,
    answers: { 409: 'The basic-auth user name is taken in the organisation', 422: 'The organisation (a non-blank org_id), or an API or policy the key names, does not exist' },
  },
  keysGet: {
    description: 'quota_remaining comes from the live counter; passwords never appear.',
    success: 'The key (session object)',
    etag: true,
    answers: { 404: 'No such key' },
  },
  keysDelete: {
    description: 'Deletes the key with its live quotas and its user-name marker.',
    success: 'Key deleted; key is the path, key_hash its hash',
    answers: { 404: 'No such key' },
  },
  keysDashboardUpdate: {
    description:
      "The body replaces the session; org_id, date_created and key_hash are kept. The API (id or api_id) and the key must be the caller's " +
      `organisation's and the key must grant the API. APIs and policies the body names must be the organisation's. ${storable}`,
    success: 'Key updated',
    etag: true,
    bodyRule: GRANT_RULE,
    params: { keyID: 'The key id, its hash (hashed), or a basic-auth user name (username=true)', hashed: 'Any non-empty value but 0 and false (any case): the path holds the key hash' },
    answers: {
      404: "No such API or key in the caller's organisation, or the key does not grant the API",
      409: 'The basic-auth user name is taken in the organisation',
      422: "An API or policy the body names is not the caller organisation's",
    },
  },
  orgKeysAdminCreate: {
    description: `A key of the organisation in org_id, answered in the key result form. ${references}. ${storable}`,
    success: 'Key added; key_id is the clear key (shown this once)',
    bodyRule: GRANT_RULE,
    answers: { 409: 'The basic-auth user name is taken in the organisation', 422: 'The organisation, or an API or policy the key names, does not exist' },
  },
  orgKeysUpdate: {
    description: `The organisation-wide session: its quota caps all the organisation's keys. ${storable}`,
    success: "Organisation session set; key is the organisation id",
    params: { orgID: 'The organisation id' },
    answers: { 404: 'No such organisation' },
  },
};
