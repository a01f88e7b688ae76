/** Organisations (admin routes): ids, stamps and the 409 of a taken id. */
import { pageRequest } from '../domain/paging';
import { BadRequest, Conflict, NotFound } from '../errors';
import type { IfMatch } from '../domain/if-match';
import { newDbId } from '../lib/hashing';
import type { PageQuery } from '../schemas/common';
import type { Organisation, OrganisationInput } from '../schemas/organisations';
import { insertOrganisation, loadOrganisation, loadOrganisationPage, OFFBOARDING_SINCE, saveOrganisation } from '../store/organisations';
import { writeVersioned } from '../store/db/versioned-write';
import { forgetOrgStanding } from './org-limits';

/** Creates an organisation under the body's id, or a new database id; a taken id is 409. */
export async function createOrganisation(input: OrganisationInput): Promise<Organisation> {
  const now = new Date().toISOString();
  const org = { ...withoutMark(input), id: input.id ?? newDbId(), created_at: now, updated_at: now, version: 1 };
  await insertOrganisation(org);
  return org;
}

/** The body without the store's mark of an offboarding: only DELETE sets it (a body member of that name is dropped). */
function withoutMark(input: OrganisationInput): OrganisationInput {
  const { [OFFBOARDING_SINCE]: _mark, ...rest } = input as OrganisationInput & Record<string, unknown>;
  return rest as OrganisationInput;
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

/**
 * PUT /admin/organisations/{orgID}: replaces the body; id and created_at stay. `active` and
 * `limits` take effect at once in this process and within CACHE_SECONDS everywhere (org-limits.ts).
 * 404 unknown, 412 stale If-Match, 400 a body id other than the path's.
 */
export function replaceOrganisation(orgId: string, input: OrganisationInput, ifMatch: IfMatch | undefined): Promise<Organisation> {
  if (input.id !== undefined && input.id !== orgId) throw new BadRequest(`the body's id ${input.id} is not the path's ${orgId}`);
  return writeVersioned({
    what: `organisation ${orgId}`,
    ifMatch,
    read: () => loadOrganisation(orgId),
    notFound: () => new NotFound(`organisation ${orgId} not found`),
    write: async (current) => {
      if ((current as Organisation & Record<string, unknown>)[OFFBOARDING_SINCE]) throw new Conflict(`organisation ${orgId} is being offboarded`);
      const next: Organisation = {
        ...withoutMark(input),
        id: orgId,
        created_at: current.created_at,
        updated_at: new Date().toISOString(),
        version: current.version + 1,
      };
      await saveOrganisation(next, current.version);
      forgetOrgStanding(orgId);
      return next;
    },
  });
}
