/**
 * What each gateway following the routing table last reported (PUT /gw/gateways/{gatewayID}):
 * one item per gateway in one partition, read whole by an API's "where is it live" (an
 * installation runs a handful of gateways, not thousands).
 */
import type { StoredGatewayReport } from '../domain/api-on-gateway';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import type { StorageKey } from './db/storage-key';
import { writeItems } from './db/transactions';

const gatewayKeys = {
  report: (gatewayId: string): StorageKey => ({ PK: 'GATEWAYS#ALL', SK: `GATEWAY#${gatewayId}` }),
};

const reports = defineEntity<StoredGatewayReport, [gatewayId: string]>({
  name: 'gateway_report',
  key: gatewayKeys.report,
  ids: (r) => [r.gateway_id],
});

/** The most gateways read for one answer: more than an installation runs. */
const GATEWAYS_READ = 100;

export async function putGatewayReport(report: StoredGatewayReport): Promise<void> {
  await writeItems([reports.put(report)]);
}

/** The reports of the installation's gateways, by id. */
export async function loadGatewayReports(): Promise<StoredGatewayReport[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': gatewayKeys.report('').PK, ':sk': 'GATEWAY#' },
      ConsistentRead: true,
      Limit: GATEWAYS_READ,
    }),
  );
  return (out.Items ?? []).map((i) => reports.fromItem(i));
}
