/** Organisations (admin routes): ids, stamps and the 409 of a taken id. */
import { newDbId } from '../lib/hashing';
import type { Organisation, OrganisationInput } from '../schemas/organisations';
import { insertOrganisation } from '../store/organisations';

/** Creates an organisation under the body's id, or a new database id; a taken id is 409. */
export async function createOrganisation(input: OrganisationInput): Promise<Organisation> {
  const now = new Date().toISOString();
  const org = { ...input, id: input.id ?? newDbId(), created_at: now, updated_at: now, version: 1 };
  await insertOrganisation(org);
  return org;
}
