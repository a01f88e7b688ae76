/**
 * OAuth clients of an API: one item per client id (unique across the installation), listed per
 * API on GSI1 in creation order. The secret is stored only as its SHA-256.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound, PreconditionFailed, Unprocessable } from '../errors';
import type { OAuthClient } from '../schemas/oauth';
import { apiExistsCheck } from './apis';
import { ddb, tableName } from './db/client';
import { getItem, isConditionFailure, stripItem } from './db/items';
import { listPage, queryAll } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { deleteOp, putOp, transactWrite, type TxItem } from './db/transactions';
import { replaceVersioned, versionCondition } from './db/versioning';
import type { IfMatch } from '../domain/if-match';

export const oauthKeys = {
  client: (clientId: string): StorageKey => ({ PK: `OAUTH#${clientId}`, SK: 'OAUTH' }),
  /** GSI1: an API's clients in creation order. */
  ofApi: (apiId: string) => `API#${apiId}#OAUTH`,
};

/** Never leave the store: the secret's hash and bookkeeping. */
const PRIVATE = ['secret_hash', 'org_id', 'created_at', 'updated_at', 'version'] as const;

export type StoredClient = OAuthClient & { secret_hash: string; org_id: string; created_at: string; updated_at: string; version: number };

const clientNotFound = (clientId: string) => () => new NotFound(`OAuth client ${clientId} not found`);

function itemOf(c: StoredClient) {
  return { ...oauthKeys.client(c.client_id), entity: 'oauth_client', GSI1PK: oauthKeys.ofApi(c.api_id), GSI1SK: timeSortKey(c.created_at, c.client_id), ...c };
}

/** A client as answers show it: without its secret's hash and bookkeeping. */
export const shownClient = (c: StoredClient): OAuthClient => stripItem<OAuthClient>(c, PRIVATE);

/** Creates a client; a taken client id is 409, and the API must still exist when it is written (422). */
export async function putNewClient(client: StoredClient): Promise<void> {
  await transactWrite([
    {
      op: putOp(itemOf(client), 'attribute_not_exists(PK)'),
      onConditionFail: () => new Conflict(`OAuth client ${client.client_id} already exists`),
    },
    // The API may be deleted between the caller's read and this write.
    { op: apiExistsCheck(client.api_id), onConditionFail: () => new Unprocessable(`API ${client.api_id} does not exist`) },
  ]);
}

/** The stored client of that id, or undefined. */
export async function getClient(clientId: string): Promise<StoredClient | undefined> {
  const item = await getItem(oauthKeys.client(clientId), true);
  return item ? stripItem<StoredClient>(item) : undefined;
}

/** Replaces a client (412 on a stale If-Match); answers the new version. */
export function replaceClient(next: StoredClient, ifMatch: IfMatch | undefined): Promise<number> {
  return replaceVersioned(oauthKeys.client(next.client_id), itemOf(next), ifMatch, clientNotFound(next.client_id));
}

/** An API's clients, without secrets: one Query on GSI1. */
export async function listClientsOfApi(apiId: string): Promise<OAuthClient[]> {
  const page = await listPage({ index: 'GSI1', partition: oauthKeys.ofApi(apiId), forward: true }, { mode: 'all' });
  return page.items.map((i) => stripItem<OAuthClient>(i, PRIVATE));
}

/** Delete operations for every OAuth client of an API (its delete removes them in the same transaction). */
export async function clientDeleteItems(apiId: string): Promise<TxItem[]> {
  const keys = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': oauthKeys.ofApi(apiId) },
    ProjectionExpression: 'PK, SK',
  });
  return keys.map((i) => ({ op: deleteOp({ PK: String(i.PK), SK: String(i.SK) }) }));
}

/** Deletes a client of the API; 404 for another API's client, 412 for a stale If-Match. */
export async function deleteClientOfApi(apiId: string, clientId: string, ifMatch: IfMatch | undefined): Promise<void> {
  const version = versionCondition(ifMatch);
  try {
    await ddb().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: oauthKeys.client(clientId),
        ConditionExpression: version ? `api_id = :api AND ${version.expression}` : 'api_id = :api',
        ExpressionAttributeValues: { ':api': apiId, ...version?.values },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    if (!e.Item || e.Item.api_id?.S !== apiId) throw clientNotFound(clientId)();
    throw new PreconditionFailed();
  }
}
