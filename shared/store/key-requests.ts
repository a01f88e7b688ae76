/**
 * Developers' key requests: one item each, listed for the organisation by state (a pending list is
 * one Query) and for its developer. Every change of state is conditional on the state it leaves,
 * so two users deciding the same request at once cannot both win.
 */
import { pagesSeen, type PageRequest } from '../domain/paging';
import type { KeyRequest } from '../schemas/portal';
import { KEY_REQUEST_STATES } from '../schemas/value-lists';
import { tableName } from './db/client';
import { defineEntity } from './db/entity';
import { loadListed, queryAll } from './db/items';
import { listPage } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import type { TxItem } from './db/transactions';

export const requestKeys = {
  request: (id: string): StorageKey => ({ PK: `KEYREQ#${id}`, SK: 'KEYREQ' }),
  /** GSI1: an organisation's requests of one state, oldest first. */
  ofOrg: (orgId: string, state: KeyRequest['state']) => `ORG#${orgId}#KEYREQS#${state}`,
  /** GSI2: a developer's requests. */
  ofDeveloper: (developerId: string) => `DEV#${developerId}#KEYREQS`,
};

const requests = defineEntity<KeyRequest, [id: string]>({
  name: 'key_request',
  key: requestKeys.request,
  ids: (r) => [r.id],
  indexes: (r) => ({
    GSI1PK: requestKeys.ofOrg(r.org_id, r.state),
    GSI1SK: timeSortKey(r.created_at, r.id),
    GSI2PK: requestKeys.ofDeveloper(r.developer_id),
    GSI2SK: timeSortKey(r.created_at, r.id),
  }),
  audited: true,
});

export const loadKeyRequest = (id: string): Promise<KeyRequest | undefined> => requests.get(id);

export const keyRequestInsert = (r: KeyRequest): TxItem => requests.insert(r);

/**
 * The request's move to `next` from the state and key it was read with (`lost` when another
 * writer moved it first): its list follows its state.
 */
export function keyRequestMove(previous: KeyRequest, next: KeyRequest, lost: () => Error): TxItem {
  const item = requests.toItem(next);
  const keyCondition = previous.key_hash === undefined ? 'attribute_not_exists(#key)' : '#key = :key';
  return {
    op: {
      Put: {
        TableName: tableName(),
        Item: item,
        ConditionExpression: `#state = :state AND ${keyCondition}`,
        ExpressionAttributeNames: { '#state': 'state', '#key': 'key_hash' },
        ExpressionAttributeValues: { ':state': previous.state, ...(previous.key_hash === undefined ? {} : { ':key': previous.key_hash }) },
      },
    },
    onConditionFail: lost,
  };
}

/** A page of the organisation's requests of one state, oldest first (a queue to work through). */
export async function loadOrgKeyRequestPage(orgId: string, state: KeyRequest['state'], req: PageRequest) {
  const page = await listPage({ index: 'GSI1', partition: requestKeys.ofOrg(orgId, state), forward: true }, req);
  return { requests: page.items.map((i) => requests.fromItem(i)), pages: pagesSeen(page.extent, req), next_cursor: page.nextCursor };
}

/** Every request of a developer, newest first (bounded: a developer holds few open requests). */
export async function loadDeveloperKeyRequests(developerId: string): Promise<KeyRequest[]> {
  const items = await queryAll({
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': requestKeys.ofDeveloper(developerId) },
    ScanIndexForward: false,
  });
  return items.map((i) => requests.fromItem(i));
}

/** Every request of the organisation, of every state (an export: one Query of each state's list). */
export async function loadOrgKeyRequests(orgId: string): Promise<KeyRequest[]> {
  const lists = await Promise.all(KEY_REQUEST_STATES.map((state) => loadListed(requestKeys.ofOrg(orgId, state))));
  return lists.flat().map((i) => requests.fromItem(i));
}
