import type { policiesRoutes } from '../../route-groups/policies';
import type { GroupDocs } from '../route-doc';

const storable = 'Every number of the body, meta_data included, is stored and must fit storage (contract §11).';
const perApi = 'partitions.per_api cannot be combined with acl, complexity, quota or rate_limit.';

export const policiesDocs: GroupDocs<typeof policiesRoutes> = {
  policiesCreate: {
    description: `Policy ids are chosen by the client and unique across the installation. ${perApi} ${storable}`,
    success: 'Policy created; key is its id',
    answers: { 409: 'The id is taken', 422: 'The org_id names no organisation (a blank or absent one is allowed)' },
  },
  policiesGet: { description: 'Any policy, by id.', success: 'The policy', etag: true, answers: { 404: 'No such policy' } },
  policiesUpdate: {
    description: `Full replacement; _id and date_created are kept. A body whose id is not the path's is 400 (a rule between path and body). ${perApi} ${storable}`,
    success: 'Policy replaced; key is its id',
    answers: { 400: 'The body names another id than the path', 404: 'No such policy', 422: 'The policy moves to an org_id that names no organisation' },
  },
  policiesDelete: {
    description: 'Keys naming the policy simply stop receiving what it granted.',
    success: 'Policy deleted; key is its id',
    answers: { 404: 'No such policy' },
  },
  policiesImport: {
    description:
      `Every policy is validated before any is written; ids are kept (a blank id takes _id) and unique within the import. ${perApi} ` +
      `All-or-nothing per transaction of up to 100 policies and 4 MB. ${storable}`,
    success: 'Policies imported; Meta maps each id to true',
    answers: { 422: 'An org_id names no organisation (nothing of that transaction is written)' },
  },
};
