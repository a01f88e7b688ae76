/** Organisations (admin routes): ids, stamps and the 409 of a taken id. */
import { pageRequest } from '../domain/paging';
import { NotFound } from '../errors';
import { newDbId } from '../lib/hashing';
import type { PageQuery } from '../schemas/common';
import type { Organisation, OrganisationInput } from '../schemas/organisations';
import { insertOrganisation, loadOrganisation, loadOrganisationPage } from '../store/organisations';

/** Creates an organisation under the body's id, or a new database id; a taken id is 409. */
export async function createOrganisation(input: OrganisationInput): Promise<Organisation> {
  const now = new Date().toISOString();
  const org = { ...input, id: input.id ?? newDbId(), created_at: now, updated_at: now, version: 1 };
  await insertOrganisation(org);
  return org;
}

/** GET /admin/organisations: a page of the installation's organisations; `q` searches id and owner_name. */
export function listOrganisations(query: PageQuery & { q?: string }) {
  return loadOrganisationPage(pageRequest(query), query.q);
}

/** GET /admin/organisations/{orgID}: the organisation and its version (ETag); 404 unknown. */
export async function getOrganisation(orgId: string): Promise<{ result: Organisation; version: number }> {
  const org = await loadOrganisation(orgId);
  if (!org) throw new NotFound(`organisation ${orgId} not found`);
  return { result: org, version: org.version };
}
