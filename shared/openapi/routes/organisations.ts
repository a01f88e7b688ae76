import type { organisationsRoutes } from '../../route-groups/organisations';
import type { GroupDocs } from '../route-doc';

export const organisationsDocs: GroupDocs<typeof organisationsRoutes> = {
  organisationsCreate: {
    description: 'The id is the body\'s `id` when given, else 24 lowercase hex. Every number of the body is stored, so it must fit storage (contract §11).',
    success: 'Organisation created; Meta is its id',
    answers: { 409: 'The id is taken' },
  },
};
