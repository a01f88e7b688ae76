import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequest, Conflict, NotFound, PreconditionFailed, Unprocessable } from '../errors';
import { randomHex, sha256Hex } from '../domain/hashing';
import type { OAuthClient, OAuthCreate, OAuthUpdate } from '../schemas/oauth';
import { getApiSummary } from './apis';
import { ddb, tableName } from './client';
import { getItem, isConditionFailure, stripItem } from './items';
import { apiKeys, timeSortKey } from './keys';
import { listPage } from './paging';
import { getPolicy } from './policies';
import { transactWrite, type TxItem } from './transact';
import { replaceVersioned } from './versioned';

/** OAuth client keys: one item per client id; GSI1 lists an API's clients in creation order. */
export const oauthKeys = {
  client: (clientId: string) => ({ PK: `OAUTH#${clientId}`, SK: 'OAUTH' }),
  ofApi: (apiId: string) => `API#${apiId}#OAUTH`,
};

/** Delete operations for every OAuth client of an API (its delete removes them in the same transaction). */
export async function clientDeleteItems(apiId: string): Promise<TxItem[]> {
  const items: TxItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': oauthKeys.ofApi(apiId) },
        ProjectionExpression: 'PK, SK',
        ExclusiveStartKey: start,
      }),
    );
    for (const i of out.Items ?? []) items.push({ op: { Delete: { TableName: tableName(), Key: { PK: String(i.PK), SK: String(i.SK) } } } });
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Never leave the store: the secret's hash and bookkeeping. */
const PRIVATE = ['secret_hash', 'org_id', 'created_at', 'updated_at', 'version'] as const;

type Stored = OAuthClient & { secret_hash: string; org_id: string; created_at: string; updated_at: string; version: number };

const clientNotFound = (clientId: string) => () => new NotFound(`OAuth client ${clientId} not found`);

/** A policy named by a client must exist (422) and grant the client's API (400). */
async function checkPolicy(policyId: string, apiId: string, path: string): Promise<void> {
  if (!policyId) return;
  const policy = await getPolicy(policyId);
  if (!policy) throw new Unprocessable(`policy ${policyId} does not exist`, [{ path, message: 'unknown policy' }]);
  if (!policy.access_rights?.[apiId]) {
    throw new BadRequest(`policy ${policyId} does not grant access to API ${apiId}`, [{ path, message: 'policy lacks the API' }]);
  }
}

function itemOf(c: Stored) {
  return { ...oauthKeys.client(c.client_id), entity: 'oauth_client', GSI1PK: oauthKeys.ofApi(c.api_id), GSI1SK: timeSortKey(c.created_at, c.client_id), ...c };
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
  const client: Stored = {
    ...fields,
    client_id: given ?? randomHex(16),
    org_id: api.org_id,
    secret_hash: sha256Hex(secret),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await transactWrite([
    {
      op: { Put: { TableName: tableName(), Item: itemOf(client), ConditionExpression: 'attribute_not_exists(PK)' } },
      onConditionFail: () => new Conflict(`OAuth client ${client.client_id} already exists`),
    },
    // The API may be deleted between the read above and this write.
    {
      op: { ConditionCheck: { TableName: tableName(), Key: apiKeys.main(input.api_id), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFail: () => new Unprocessable(`API ${input.api_id} does not exist`),
    },
  ]);
  return { ...stripItem<OAuthClient>(client, PRIVATE), secret };
}

/** A client of the API named in the path; another API's client is 404, as is an unknown API. */
async function clientOfApi(apiId: string, clientId: string): Promise<Stored> {
  if (!(await getApiSummary(apiId))) throw new NotFound(`API ${apiId} not found`);
  const item = await getItem(oauthKeys.client(clientId), true);
  if (!item || item.api_id !== apiId) throw clientNotFound(clientId)();
  return stripItem<Stored>(item);
}

/** Replaces redirect_uri, policy_id, meta_data and description (spec 2); id and secret stay. */
export async function updateClient(apiId: string, clientId: string, input: OAuthUpdate, ifMatch: number | undefined) {
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
  const next: Stored = {
    ...current,
    redirect_uri: input.redirect_uri,
    policy_id: input.policy_id,
    meta_data: input.meta_data,
    description: input.description,
    updated_at: new Date().toISOString(),
  };
  const version = await replaceVersioned(oauthKeys.client(clientId), itemOf(next), ifMatch, clientNotFound(clientId));
  return { client: stripItem<OAuthClient>(next, PRIVATE), version };
}

/** An API's clients, without secrets: one Query on GSI1 (unknown API 404). */
export async function listClients(apiId: string): Promise<OAuthClient[]> {
  if (!(await getApiSummary(apiId))) throw new NotFound(`API ${apiId} not found`);
  const page = await listPage({ index: 'GSI1', partition: oauthKeys.ofApi(apiId), forward: true }, { mode: 'all' });
  return page.items.map((i) => stripItem<OAuthClient>(i, PRIVATE));
}

/** Deletes a client of the API in the path; 404 for another API's client, 412 for a stale If-Match. */
export async function deleteClient(apiId: string, clientId: string, ifMatch: number | undefined): Promise<void> {
  if (!(await getApiSummary(apiId))) throw new NotFound(`API ${apiId} not found`);
  try {
    await ddb().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: oauthKeys.client(clientId),
        ConditionExpression: `api_id = :api${ifMatch === undefined ? '' : ' AND version = :v'}`,
        ExpressionAttributeValues: { ':api': apiId, ...(ifMatch === undefined ? {} : { ':v': ifMatch }) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    if (!e.Item || e.Item.api_id?.S !== apiId) throw clientNotFound(clientId)();
    throw new PreconditionFailed();
  }
}
