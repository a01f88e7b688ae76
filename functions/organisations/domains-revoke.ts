import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsDomainsRevoke } from '../../shared/route-groups/organisations';
import { revokeDomain } from '../../shared/services/domain-grants';

/** DELETE /admin/organisations/{orgID}/domains/{domain}: revoke a domain from an organisation. */
export const handler = createHandler(organisationsDomainsRevoke, async ({ params }) => {
  await revokeDomain(params.orgID, params.domain);
  return reply.status('Domain revoked', null);
});
