/**
 * OAuth clients of an API (gateway routes). The API in the path must exist (404; 422 when the
 * body of a create names it), a policy a client names must exist (422) and grant the client's
 * API (400), and neither the ids nor the secret change after the create.
 */
import { BadRequest, NotFound, Unprocessable } from '../errors';
import { randomHex, sha256Hex } from '../domain/hashing';
import type { OAuthClient, OAuthCreate, OAuthUpdate } from '../schemas/oauth';
import { getApiSummary } from '../store/apis';
import { deleteClientOfApi, getClient, listClientsOfApi, putNewClient, replaceClient, shownClient, type StoredClient } from '../store/oauth-clients';
import { getPolicy } from '../store/policies';
import type { IfMatch } from '../domain/if-match';

const clientNotFound = (clientId: string) => new NotFound(`OAuth client ${clientId} not found`);

/** A policy named by a client must exist (422) and grant the client's API (400). */
async function checkPolicy(policyId: string, apiId: string, path: string): Promise<void> {
  if (!policyId) return;
  const policy = await getPolicy(policyId);
  if (!policy) throw new Unprocessable(`policy ${policyId} does not exist`, [{ path, message: 'unknown policy' }]);
  if (!policy.access_rights?.[apiId]) {
    throw new BadRequest(`policy ${policyId} does not grant access to API ${apiId}`, [{ path, message: 'policy lacks the API' }]);
  }
}

async function requireApi(apiId: string): Promise<void> {
  if (!(await getApiSummary(apiId))) throw new NotFound(`API ${apiId} not found`);
}

/**
 * Creates a client of an existing API (422 otherwise) with a generated secret, stored only as
 * its SHA-256; the clear secret is answered this once. A given client id that is taken is 409.
 */
export async function createClient(input: OAuthCreate): Promise<OAuthClient & { secret: string }> {
  const api = await getApiSummary(input.api_id);
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
  await putNewClient(client);
  return { ...shownClient(client), secret };
}

/** A client of the API named in the path; another API's client is 404, as is an unknown API. */
async function clientOfApi(apiId: string, clientId: string): Promise<StoredClient> {
  await requireApi(apiId);
  const client = await getClient(clientId);
  if (!client || client.api_id !== apiId) throw clientNotFound(clientId);
  return client;
}

/** Replaces redirect_uri, policy_id, meta_data and description; id and secret stay. */
export async function updateClient(apiId: string, clientId: string, input: OAuthUpdate, ifMatch: IfMatch | undefined) {
  const current = await clientOfApi(apiId, clientId);
  for (const [field, value, own] of [['api_id', input.api_id, apiId], ['client_id', input.client_id, clientId]] as const) {
    if (value !== undefined && value !== '' && value !== own) {
      throw new BadRequest(`body.${field} ${value} differs from the path (${own})`, [{ path: `body.${field}`, message: 'must equal the path' }]);
    }
  }
  if (input.secret !== undefined && input.secret !== '' && sha256Hex(input.secret) !== current.secret_hash) {
    throw new BadRequest('The secret of an OAuth client cannot be changed', [{ path: 'body.secret', message: 'differs from the stored secret' }]);
  }
  await checkPolicy(input.policy_id, apiId, 'body.policy_id');
  const next: StoredClient = {
    ...current,
    redirect_uri: input.redirect_uri,
    policy_id: input.policy_id,
    meta_data: input.meta_data,
    description: input.description,
    updated_at: new Date().toISOString(),
  };
  const version = await replaceClient(next, ifMatch);
  return { client: shownClient(next), version };
}

/** An API's clients, without secrets (unknown API 404). */
export async function listClients(apiId: string): Promise<OAuthClient[]> {
  await requireApi(apiId);
  return listClientsOfApi(apiId);
}

/** Deletes a client of the API in the path; 404 for another API's client, 412 for a stale If-Match. */
export async function deleteClient(apiId: string, clientId: string, ifMatch: IfMatch | undefined): Promise<void> {
  await requireApi(apiId);
  await deleteClientOfApi(apiId, clientId, ifMatch);
}
