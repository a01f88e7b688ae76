/**
 * OAuth clients of an API (gateway routes). The API in the path must exist (404; 422 when the
 * body of a create names it), a policy a client names must exist (422) and grant the client's
 * API (400), and neither the ids nor the secret change after the create.
 */
import { BadRequest, NotFound, Unprocessable } from '../errors';
import { randomHex, sha256Hex } from '../lib/hashing';
import type { IfMatch } from '../domain/if-match';
import { pageCount, pageRequest } from '../domain/paging';
import { assertBodyIdIsPathId } from '../domain/path-ids';
import type { OAuthClient, OAuthCreate, OAuthUpdate } from '../schemas/oauth';
import { loadApiSummary } from '../store/apis';
import { writeVersioned } from '../store/db/versioned-write';
import { insertClient, loadClient, loadClientsOfApi, removeClientOfApi, saveClient, shownClient, type StoredClient } from '../store/oauth-clients';
import { loadPolicy } from '../store/policies';
import { orgApiSummary } from './org-apis';

const clientNotFound = (clientId: string) => new NotFound(`OAuth client ${clientId} not found`);

/**
 * A policy named by a client must exist (422) and grant the client's API (400); for a dashboard
 * write (`withinOrg`), another organisation's policy is 422 exactly like a missing one.
 */
async function checkPolicy(policyId: string, apiId: string, path: string, withinOrg?: string): Promise<void> {
  if (!policyId) return;
  const policy = await loadPolicy(policyId);
  if (!policy || (withinOrg !== undefined && policy.org_id !== withinOrg))
    throw new Unprocessable(`policy ${policyId} does not exist`, [{ path, message: 'unknown policy' }]);
  if (!policy.access_rights?.[apiId]) {
    throw new BadRequest(`policy ${policyId} does not grant access to API ${apiId}`, [{ path, message: 'policy lacks the API' }]);
  }
}

/**
 * The api_id of the API in the path; 404 when unknown. A dashboard path (`withinOrg`) may hold
 * the database id, and another organisation's API is 404 like an unknown one.
 */
async function requireApi(apiId: string, withinOrg?: string): Promise<string> {
  const api = withinOrg === undefined ? await loadApiSummary(apiId) : await orgApiSummary(withinOrg, apiId);
  if (!api) throw new NotFound(`API ${apiId} not found`);
  return api.api_id;
}

/**
 * Creates a client of an existing API (422 otherwise) with a generated secret, stored only as
 * its SHA-256; the clear secret is answered this once. A given client id that is taken is 409.
 * With `withinOrg` (the dashboard), an API or policy of another organisation is refused as none
 * (404, 422), checked once with the reads that find them.
 */
export async function createClient(input: OAuthCreate, withinOrg?: string): Promise<OAuthClient & { secret: string }> {
  let apiId = input.api_id;
  let orgId: string;
  if (withinOrg === undefined) {
    const api = await loadApiSummary(apiId);
    if (!api) throw new Unprocessable(`API ${apiId} does not exist`, [{ path: 'body.api_id', message: 'unknown API' }]);
    orgId = api.org_id;
  } else {
    apiId = await requireApi(apiId, withinOrg);
    orgId = withinOrg;
  }
  await checkPolicy(input.policy_id, apiId, 'body.policy_id', withinOrg);
  const now = new Date().toISOString();
  const secret = randomHex(32);
  const { client_id: given, ...fields } = input;
  const client: StoredClient = {
    ...fields,
    api_id: apiId,
    client_id: given ?? randomHex(16),
    org_id: orgId,
    secret_hash: sha256Hex(secret),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await insertClient(client);
  return { ...shownClient(client), secret };
}

/**
 * Replaces redirect_uri, policy_id, meta_data and description; ids and secret stay. An unknown API,
 * or a client of another API, is 404; a body naming other ids (400), another secret (400) or a
 * policy that is unknown (422) or lacks the API (400) is refused before If-Match is compared (412).
 */
export async function replaceClient(pathApiId: string, clientId: string, input: OAuthUpdate, ifMatch: IfMatch | undefined, withinOrg?: string) {
  const apiId = await requireApi(pathApiId, withinOrg);
  return writeVersioned({
    what: `OAuth client ${clientId}`,
    ifMatch,
    read: async () => {
      const current = await loadClient(clientId);
      if (!current || current.api_id !== apiId) return undefined;
      assertBodyIdIsPathId('API', apiId, input.api_id, 'body.api_id');
      assertBodyIdIsPathId('OAuth client', clientId, input.client_id, 'body.client_id');
      if (input.secret !== undefined && input.secret !== '' && sha256Hex(input.secret) !== current.secret_hash) {
        throw new BadRequest('The secret of an OAuth client cannot be changed', [{ path: 'body.secret', message: 'differs from the stored secret' }]);
      }
      await checkPolicy(input.policy_id, apiId, 'body.policy_id', withinOrg);
      return current;
    },
    notFound: () => clientNotFound(clientId),
    write: async (current) => {
      const next: StoredClient = {
        ...current,
        redirect_uri: input.redirect_uri,
        policy_id: input.policy_id,
        meta_data: input.meta_data,
        description: input.description,
        updated_at: new Date().toISOString(),
        version: current.version + 1,
      };
      await saveClient(next, current);
      return { client: shownClient(next), version: next.version };
    },
  });
}

/** An API's clients, without secrets (unknown API 404; for a dashboard read, another organisation's too). */
export async function listClients(apiId: string, withinOrg?: string): Promise<OAuthClient[]> {
  return loadClientsOfApi(await requireApi(apiId, withinOrg));
}

/** Deletes a client of the API in the path; 404 for another API's client, 412 for a stale If-Match. */
export async function deleteClient(apiId: string, clientId: string, ifMatch: IfMatch | undefined, withinOrg?: string): Promise<void> {
  await removeClientOfApi(await requireApi(apiId, withinOrg), clientId, ifMatch);
}

/**
 * POST /api/apis/oauth/{apiID}: a client of an API of the caller's organisation (404 otherwise);
 * its policy must be the organisation's (422 as for none) and grant the API (400).
 */
export async function createOrgClient(orgId: string, pathApiId: string, input: Omit<OAuthCreate, 'api_id'>): Promise<OAuthClient & { secret: string }> {
  return createClient({ ...input, api_id: pathApiId }, orgId);
}

/** GET /api/apis/oauth/{apiID}: a page of the clients of an API of the caller's organisation (404 otherwise). */
export async function listOrgClients(orgId: string, apiId: string, query: { p?: number; page_size?: number }) {
  const all = await listClients(apiId, orgId);
  const req = pageRequest(query);
  const apps = req.mode === 'page' ? all.slice(req.offset, req.offset + req.size) : all;
  return { apps, pages: pageCount(all.length, req) };
}
