/**
 * OAuth clients of an API (gateway routes). The API in the path must exist (404; 422 when the
 * body of a create names it), a policy a client names must exist (422) and grant the client's
 * API (400), and neither the ids nor the secret change after the create.
 */
import { BadRequest, NotFound, Unprocessable } from '../errors';
import { randomHex, sha256Hex } from '../domain/hashing';
import type { IfMatch } from '../domain/if-match';
import { assertBodyIdIsPathId } from '../domain/path-ids';
import type { OAuthClient, OAuthCreate, OAuthUpdate } from '../schemas/oauth';
import { loadApiSummary } from '../store/apis';
import { writeVersioned } from '../store/db/versioned-write';
import { insertClient, loadClient, loadClientsOfApi, removeClientOfApi, saveClient, shownClient, type StoredClient } from '../store/oauth-clients';
import { loadPolicy } from '../store/policies';

const clientNotFound = (clientId: string) => new NotFound(`OAuth client ${clientId} not found`);

/** A policy named by a client must exist (422) and grant the client's API (400). */
async function checkPolicy(policyId: string, apiId: string, path: string): Promise<void> {
  if (!policyId) return;
  const policy = await loadPolicy(policyId);
  if (!policy) throw new Unprocessable(`policy ${policyId} does not exist`, [{ path, message: 'unknown policy' }]);
  if (!policy.access_rights?.[apiId]) {
    throw new BadRequest(`policy ${policyId} does not grant access to API ${apiId}`, [{ path, message: 'policy lacks the API' }]);
  }
}

async function requireApi(apiId: string): Promise<void> {
  if (!(await loadApiSummary(apiId))) throw new NotFound(`API ${apiId} not found`);
}

/**
 * Creates a client of an existing API (422 otherwise) with a generated secret, stored only as
 * its SHA-256; the clear secret is answered this once. A given client id that is taken is 409.
 */
export async function createClient(input: OAuthCreate): Promise<OAuthClient & { secret: string }> {
  const api = await loadApiSummary(input.api_id);
  if (!api) throw new Unprocessable(`API ${input.api_id} does not exist`, [{ path: 'body.api_id', message: 'unknown API' }]);
  await checkPolicy(input.policy_id, input.api_id, 'body.policy_id');
  const now = new Date().toISOString();
  const secret = randomHex(32);
  const { client_id: given, ...fields } = input;
  const client: StoredClient = {
    ...fields,
    client_id: given ?? randomHex(16),
    org_id: api.org_id,
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
export async function updateClient(apiId: string, clientId: string, input: OAuthUpdate, ifMatch: IfMatch | undefined) {
  await requireApi(apiId);
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
      await checkPolicy(input.policy_id, apiId, 'body.policy_id');
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

/** An API's clients, without secrets (unknown API 404). */
export async function listClients(apiId: string): Promise<OAuthClient[]> {
  await requireApi(apiId);
  return loadClientsOfApi(apiId);
}

/** Deletes a client of the API in the path; 404 for another API's client, 412 for a stale If-Match. */
export async function deleteClient(apiId: string, clientId: string, ifMatch: IfMatch | undefined): Promise<void> {
  await requireApi(apiId);
  await removeClientOfApi(apiId, clientId, ifMatch);
}
