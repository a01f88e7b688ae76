import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsDomainsList } from '../../shared/route-groups/organisations';
import { listDomains } from '../../shared/services/domain-grants';

/** GET /admin/organisations/{orgID}/domains: the domains granted to an organisation. */
export const handler = createHandler(organisationsDomainsList, async ({ params }) => reply.status('Domains', { domains: await listDomains(params.orgID) }));
