/**
 * OAuth clients of an API: one item per client id (unique across the installation), listed per
 * API on GSI1 in creation order. The secret is stored only as its SHA-256 (made by the service).
 */
import { IdTaken, NotFound, Unprocessable } from '../errors';
import type { IfMatch } from '../domain/if-match';
import type { OAuthClient } from '../schemas/oauth';
import { apiMustExist } from './apis';
import { orgMustExist } from './organisations';
import { defineEntity } from './db/entity';
import { loadListed, queryAll, stripItem } from './db/items';
import { listPage } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { deleteIfMatch, guardVersion } from './db/versioned-write';

export const oauthKeys = {
  client: (clientId: string): StorageKey => ({ PK: `OAUTH#${clientId}`, SK: 'OAUTH' }),
  /** GSI1: an API's clients in creation order. */
  ofApi: (apiId: string) => `API#${apiId}#OAUTH`,
};

/** Never leave the store: the secret's hash and bookkeeping. */
const PRIVATE = ['secret_hash', 'org_id', 'created_at', 'updated_at', 'version'] as const;

export type StoredClient = OAuthClient & { secret_hash: string; org_id: string; created_at: string; updated_at: string; version: number };

const clients = defineEntity<StoredClient, [clientId: string]>({
  name: 'oauth_client',
  key: oauthKeys.client,
  ids: (c) => [c.client_id],
  indexes: (c) => ({ GSI1PK: oauthKeys.ofApi(c.api_id), GSI1SK: timeSortKey(c.created_at, c.client_id) }),
  versioned: true,
  audited: true,
});

/** A client as answers show it: without its secret's hash and bookkeeping. */
export const shownClient = (c: StoredClient): OAuthClient => stripItem<OAuthClient>(c, PRIVATE);

/** Stores a new client; a taken client id is 409, and the API must still exist when it is written (422). */
export async function insertClient(client: StoredClient): Promise<void> {
  await writeItems([
    clients.insert(client, { taken: () => new IdTaken('client_id') }),
    ...(client.org_id ? [orgMustExist(client.org_id)] : []),
    // The API may be deleted between the caller's read and this write.
    apiMustExist(client.api_id, () => new Unprocessable(`API ${client.api_id} does not exist`)),
  ]);
}

/** The stored client of that id, or undefined. */
export const loadClient = (clientId: string): Promise<StoredClient | undefined> => clients.get(clientId);

/** Writes `next` over the client read as `previous` (guarded by its version). */
export async function saveClient(next: StoredClient, previous: StoredClient): Promise<void> {
  await writeItems([guardVersion(clients.put(next), previous.version)]);
}

/** An API's clients, without secrets: one Query on GSI1. */
export async function loadClientsOfApi(apiId: string): Promise<OAuthClient[]> {
  const page = await listPage({ index: 'GSI1', partition: oauthKeys.ofApi(apiId), forward: true }, { mode: 'all' });
  return page.items.map((i) => shownClient(clients.fromItem(i)));
}

/** Delete operations for every OAuth client of an API (its delete removes them in the same transaction). */
export async function removeClientItems(apiId: string): Promise<TxItem[]> {
  const keys = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': oauthKeys.ofApi(apiId) },
    ProjectionExpression: 'client_id',
  });
  return keys.map((i) => clients.remove(String(i.client_id)));
}

/** Deletes a client of the API; 404 for another API's client, 412 for a stale If-Match. */
export async function removeClientOfApi(apiId: string, clientId: string, ifMatch: IfMatch | undefined): Promise<void> {
  await deleteIfMatch(clients.remove(clientId), ifMatch, () => new NotFound(`OAuth client ${clientId} not found`), {
    expression: 'api_id = :api',
    values: { ':api': apiId },
    holds: (old) => old.api_id?.S === apiId,
  });
}

/** Every client of an API as stored, its secret's hash included (an export). */
export async function loadClientRecordsOfApi(apiId: string): Promise<StoredClient[]> {
  return (await loadListed(oauthKeys.ofApi(apiId))).map((i) => stripItem<StoredClient>(i));
}

/** The write of a client carried by an import (its API is written before it by the same import). */
export const restoredClientItem = (client: StoredClient): TxItem => clients.insert({ ...client, version: 1 }, { taken: () => new IdTaken('client_id') });
