/**
 * How many listen paths are claimed on each host (docs/operating/data-plane.md): a counter per host
 * that every claim's transaction moves, so the managed data plane's route quota (one data-plane API
 * per host, two routes per listen path) is refused at write time with a clear 422 instead of a
 * definition that is stored and then left out. The count is of claims, active APIs or not: an
 * inactive API keeps its listen path, and its routes come back with it. Only with the data plane
 * on (DATA_PLANE_LISTEN_PATHS_MAX) does a count refuse; it is kept either way, so turning the data
 * plane on later starts from the truth for everything written since (`npm run claims:report --
 * --count` sets it for claims stored before).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { Unprocessable } from '../errors';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import type { TxItem } from './db/transactions';

export const hostClaimKeys = {
  /** One partition for every host's count: a domain is free text of at most 253 characters. */
  count: (host: string): StorageKey => ({ PK: 'ROUTES#HOSTS', SK: `HOST#${host}` }),
};
defineEntity({ name: 'host_claims', key: hostClaimKeys.count });

const hostName = (host: string) => (host === '' ? 'the shared hosts' : host);

/** The claim count of `host` moved by one; a new claim past the data plane's bound is refused (422). */
export function hostClaimsMove(host: string, by: 1 | -1): TxItem {
  const max = config().dataPlane.listenPathsMax;
  const limited = by === 1 && max !== undefined;
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: hostClaimKeys.count(host),
        UpdateExpression: 'ADD #n :by SET entity = :e, host = :h',
        ...(limited ? { ConditionExpression: 'attribute_not_exists(#n) OR #n < :max' } : {}),
        ExpressionAttributeNames: { '#n': 'listen_paths' },
        ExpressionAttributeValues: { ':by': by, ':e': 'host_claims', ':h': host, ...(limited ? { ':max': max } : {}) },
      },
    },
    onConditionFail: () =>
      new Unprocessable(
        `${hostName(host)} already hold ${max} listen paths, as many as the managed data plane serves on one host ` +
          '(API Gateway: 300 routes per API, two per listen path); delete or move an API there first',
      ),
  };
}

/** Every host's stored count (one consistent Query of their partition). */
async function loadHostClaimCounts(): Promise<Map<string, number>> {
  const items = await queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': hostClaimKeys.count('').PK }, ConsistentRead: true });
  return new Map(items.map((i) => [String(i.host ?? ''), Number(i.listen_paths ?? 0)]));
}

/**
 * Sets each host's count to the claims stored there (claims written before counting began, or an
 * installation turning the data plane on), each from the value read: a claim written meanwhile
 * fails that host's write, which is reported to run it again. The hosts it set, and those it could not.
 */
export async function recountHostClaims(claims: ReadonlyArray<{ domain: string }>): Promise<{ set: Map<string, number>; moved: string[] }> {
  const truth = new Map<string, number>();
  for (const c of claims) truth.set(c.domain, (truth.get(c.domain) ?? 0) + 1);
  const stored = await loadHostClaimCounts();
  for (const host of stored.keys()) if (!truth.has(host)) truth.set(host, 0);
  const set = new Map<string, number>();
  const moved: string[] = [];
  for (const [host, n] of truth) {
    const seen = stored.get(host);
    if (seen === n) continue;
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: hostClaimKeys.count(host),
          UpdateExpression: 'SET #n = :n, entity = :e, host = :h',
          ConditionExpression: seen === undefined ? 'attribute_not_exists(#n)' : '#n = :seen',
          ExpressionAttributeNames: { '#n': 'listen_paths' },
          ExpressionAttributeValues: { ':n': n, ':e': 'host_claims', ':h': host, ...(seen === undefined ? {} : { ':seen': seen }) },
        }),
      );
      set.set(host, n);
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
      moved.push(host);
    }
  }
  return { set, moved };
}
