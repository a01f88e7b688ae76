import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalCatalogueList } from '../../shared/route-groups/portal';
import { catalogueOf } from '../../shared/services/portal';

/** GET /api/portal/catalogue: the organisation's published APIs with their plans. */
export const handler = createHandler(portalCatalogueList, async ({ org }) => reply.ok({ apis: await catalogueOf(org) }));
