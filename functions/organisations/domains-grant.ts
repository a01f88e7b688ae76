import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsDomainsGrant } from '../../shared/route-groups/organisations';
import { grantDomain } from '../../shared/services/domain-grants';

/** PUT /admin/organisations/{orgID}/domains/{domain}: grant a domain to an organisation. */
export const handler = createHandler(organisationsDomainsGrant, async ({ params }) =>
  reply.status((await grantDomain(params.orgID, params.domain)) === 'granted' ? 'Domain granted' : 'Domain already granted', null),
);
