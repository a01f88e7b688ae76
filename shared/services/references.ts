/**
 * References between resources (a key's APIs and policies, a definition's policies and version
 * APIs). A dashboard write names objects of the caller's organisation only (contract §2): another
 * organisation's API or policy counts as missing exactly like one that exists nowhere, so the
 * 422 that follows confirms no foreign id. Gateway and admin writes may name any.
 */
import { Unprocessable } from '../errors';
import type { ApiRecord } from '../domain/api-records';
import { definitionRefs } from '../domain/definition-refs';
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

/**
 * References inside an API definition written by a dashboard route must resolve in the caller's
 * organisation (contract §2): 422 when `api` names a policy (OIDC and JWT mappings, both forms)
 * or, with `versions`, a version API that is not `orgId`'s. A streams patch leaves `versions`
 * off: its version list is the stored one, which the patch cannot change.
 */
export async function requireOwnReferences(orgId: string, api: Pick<ApiRecord, 'oas' | 'classic'>, opts: { versions: boolean }): Promise<void> {
  const refs = definitionRefs(api);
  const [apis, policies] = await Promise.all([
    opts.versions ? missingApis(refs.versionApis, orgId) : [],
    resolvePolicies(refs.policies, orgId),
  ]);
  if (apis.length) {
    throw new Unprocessable(`unknown API: ${apis.join(', ')}`, [
      { path: 'x-gw-api-gateway.info.versioning.versions', message: 'names an API that does not exist' },
    ]);
  }
  if (policies.missing.length) {
    throw new Unprocessable(`unknown policy: ${policies.missing.join(', ')}`, [
      { path: 'x-gw-api-gateway.server.authentication', message: 'names a policy that does not exist' },
    ]);
  }
}
