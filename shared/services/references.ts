/**
 * References between resources (a key's APIs and policies, a definition's policies and version
 * APIs). A dashboard write names objects of the caller's organisation only (contract §2): another
 * organisation's API or policy counts as missing exactly like one that exists nowhere, so the
 * 422 that follows confirms no foreign id. Gateway and admin writes may name any.
 */
import { loadApiSummaries } from '../store/apis';
import { loadPolicies, type StoredPolicy } from '../store/policies';

/**
 * The api_ids among `ids` that name no API a writer may name: with `withinOrg` (dashboard writes)
 * an API of another organisation is missing exactly like one that exists nowhere.
 */
export async function missingApis(ids: readonly string[], withinOrg?: string): Promise<string[]> {
  const found = await loadApiSummaries(ids);
  return ids.filter((id) => {
    const api = found.get(id);
    return !api || (withinOrg !== undefined && api.org_id !== withinOrg);
  });
}

/**
 * The policies with these ids that a writer may name, and the ids left over. With `withinOrg`
 * (dashboard writes) only that organisation's policies count: another organisation's, or one
 * without `org_id`, is missing exactly like an id that exists nowhere.
 */
export async function resolvePolicies(ids: readonly string[], withinOrg?: string): Promise<{ found: StoredPolicy[]; missing: string[] }> {
  const found = (await loadPolicies(ids)).filter((p) => withinOrg === undefined || p.org_id === withinOrg);
  return { found, missing: ids.filter((id) => !found.some((p) => p.id === id)) };
}
