import type { assetsRoutes } from '../../route-groups/assets';
import type { GroupDocs } from '../route-doc';

const kind = 'kind other than oas-template';

export const assetsDocs: GroupDocs<typeof assetsRoutes> = {
  assetsCreate: {
    description: 'data is an OpenAPI document, often partial; only its x-gw-api-gateway is checked. The custom id is unique in the organisation. _id, org_id and last_updated are the server\'s (ignored when sent).',
    success: 'Template created; Meta is its _id, ID its custom id (or the _id)',
    answers: { 409: 'The custom id is taken in the organisation', 422: `A ${kind}` },
  },
  assetsList: { description: "Templates of the caller's organisation in creation order, paged (contract §5).", success: 'A page of templates' },
  assetsGet: { description: 'By _id or custom id.', success: 'The template', etag: true, answers: { 404: 'No such template' } },
  assetsUpdate: {
    description: 'Replaces the template; a PUT without id keeps the custom id.',
    success: 'Template replaced; Meta is its _id, ID its custom id (or the _id)',
    etag: true,
    answers: { 404: 'No such template', 409: 'The custom id is taken in the organisation', 422: `A ${kind}` },
  },
  assetsDelete: { description: 'Removes the template and its custom id.', success: 'Template deleted; Meta is its _id', answers: { 404: 'No such template' } },
};
