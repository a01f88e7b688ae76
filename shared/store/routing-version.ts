/**
 * The installation's routing version: a number every change that may change a route moves (any
 * write of a definition, a domain's grant or revoke), in that change's own transaction. Gateways
 * that follow the routing table (GET /gw/routing) read it with one cheap request and fetch the
 * table only when it moved.
 */
import { tableName } from './db/client';
import { defineEntity } from './db/entity';
import { batchGet } from './db/items';
import type { StorageKey } from './db/storage-key';
import type { TxItem } from './db/transactions';

/**
 * Shards of the version: every write moves one, so concurrent writes across the installation
 * rarely meet on one item (a transaction that meets another on an item is cancelled and sent
 * again); the version is their sum.
 */
const VERSION_SHARDS = 8;

const routingVersionKeys = {
  shard: (shard: number): StorageKey => ({ PK: 'ROUTES#VERSION', SK: `VERSION#${shard}` }),
};

defineEntity({ name: 'routing_version', key: routingVersionKeys.shard });

/** The version's move, in the transaction of a change that may change a route. */
export function routingVersionMove(): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: routingVersionKeys.shard(Math.floor(Math.random() * VERSION_SHARDS)),
        UpdateExpression: 'ADD #n :one SET changed_at = :now, entity = :e',
        ExpressionAttributeNames: { '#n': 'version' },
        ExpressionAttributeValues: { ':one': 1, ':now': new Date().toISOString(), ':e': 'routing_version' },
      },
    },
  };
}

/** The routing version (the sum of its shards, 0 before any change) and when it last moved. */
export async function loadRoutingVersion(): Promise<{ version: number; changed_at: string | null }> {
  const shards = await batchGet(
    Array.from({ length: VERSION_SHARDS }, (_, i) => routingVersionKeys.shard(i)),
    true,
    ['version', 'changed_at'],
  );
  const changed = shards.map((i) => String(i.changed_at ?? '')).sort();
  return { version: shards.reduce((n, i) => n + Number(i.version ?? 0), 0), changed_at: changed.at(-1) || null };
}
