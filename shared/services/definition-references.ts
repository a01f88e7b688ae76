/**
 * The references inside an API definition a dashboard route writes (either form, an import, a
 * streams patch): the policies and version APIs it names must be the caller's organisation's
 * (contract §2).
 */
import { Unprocessable } from '../errors';
import type { ApiRecord } from '../domain/api-records';
import { definitionRefs } from '../domain/definition-refs';
import { missingApis, resolvePolicies } from './references';

/**
 * References inside an API definition written by a dashboard route must resolve in the caller's
 * organisation (contract §2): 422 when `api` names a policy (OIDC and JWT mappings, both forms)
 * or, with `versions`, a version API (OAS `info.versioning.versions`, classic `definition.versions`)
 * that is not `orgId`'s. A streams patch leaves `versions`
 * off: its version list is the stored one, which the patch cannot change.
 */
export async function requireOrgReferences(orgId: string, api: Pick<ApiRecord, 'oas' | 'classic'>, opts: { versions: boolean }): Promise<void> {
  const refs = definitionRefs(api);
  const [apis, policies] = await Promise.all([opts.versions ? missingApis(refs.versionApis, orgId) : [], resolvePolicies(refs.policies, orgId)]);
  if (apis.length) {
    // An OAS definition's classic form is converted from its document: the document is what was sent.
    const path = api.oas ? 'x-gw-api-gateway.info.versioning.versions' : 'definition.versions';
    throw new Unprocessable(`unknown API: ${apis.join(', ')}`, [{ path, message: 'names an API that does not exist' }]);
  }
  if (policies.missing.length) {
    throw new Unprocessable(`unknown policy: ${policies.missing.join(', ')}`, [
      { path: 'x-gw-api-gateway.server.authentication', message: 'names a policy that does not exist' },
    ]);
  }
}
