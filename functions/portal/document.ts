import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalDocument } from '../../shared/route-groups/portal';
import { publicDocument } from '../../shared/services/portal';

/** GET /portal/{orgID}/catalogue/{apiID}/openapi: a published API's public document. */
export const handler = createHandler(portalDocument, async ({ params }) => reply.ok(await publicDocument(params.orgID, params.apiID)));
