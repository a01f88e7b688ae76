/**
 * The one table definition. The CDK stack, the local stage and the test setup all build the
 * table from this, so the cloud and the local copy cannot drift apart.
 */
export const TABLE_KEYS = { partitionKey: 'PK', sortKey: 'SK' } as const;

/** Items with this attribute (epoch seconds) are removed by DynamoDB TTL. */
export const TTL_ATTRIBUTE = 'expires_at';

/**
 * The change feed (contract §11): every write, with the item before and after, for the webhook
 * delivery (functions/hooks/change-feed.ts), in the cloud and on DynamoDB Local alike.
 */
export const TABLE_STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const };

/** Overloaded global secondary indexes; every list is a Query on one of these or on the base table. */
export const INDEXES = [
  { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
] as const;

export type IndexName = (typeof INDEXES)[number]['name'];

/** CreateTable input for DynamoDB Local and tests (on-demand, like the cloud table). */
export function createTableInput(tableName: string) {
  const attrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const i of INDEXES) {
    attrs.add(i.partitionKey);
    attrs.add(i.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    StreamSpecification: TABLE_STREAM,
    AttributeDefinitions: [...attrs].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: INDEXES.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
