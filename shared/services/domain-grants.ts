/**
 * Domains granted to organisations (contract §13): only an installation admin grants or revokes
 * them, and an API may use as its custom domain only a domain granted to its organisation.
 */
import { NotFound } from '../errors';
import { insertDomainGrant, loadDomainGrants, removeDomainGrant } from '../store/domain-grants';
import { organisationExists } from '../store/organisations';

/** PUT /admin/organisations/{orgID}/domains/{domain}: whether the grant is new or the organisation held it already. */
export async function grantDomain(orgId: string, domain: string): Promise<'granted' | 'held'> {
  return insertDomainGrant({ domain, org_id: orgId, granted_at: new Date().toISOString() });
}

/**
 * DELETE /admin/organisations/{orgID}/domains/{domain}: the organisation's APIs on it keep their
 * definitions, but no request reaches them there any more, and their next write is 422 until the
 * domain is granted again or they leave it.
 */
export const revokeDomain = (orgId: string, domain: string): Promise<void> => removeDomainGrant(orgId, domain);

/** GET /admin/organisations/{orgID}/domains: 404 for an unknown organisation. */
export async function listDomains(orgId: string): Promise<Array<{ domain: string; granted_at: string }>> {
  const [exists, grants] = await Promise.all([organisationExists(orgId), loadDomainGrants(orgId)]);
  if (!exists) throw new NotFound(`organisation ${orgId} not found`);
  return grants.map(({ domain, granted_at }) => ({ domain, granted_at }));
}
