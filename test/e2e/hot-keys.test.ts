/**
 * A hot key through the stage: behind an endpoint with a per-item write ceiling
 * (test/support/throttling-dynamo.ts), a key's counter shards itself when throttled and never
 * admits more than quota_max; a reset folds the shards back. The sharded counter itself, called
 * directly, is test/integration/sharded-counters.test.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { handlersDone } from '../../shared/http/create-handler';
import { keyHash } from '../../shared/domain/key-ids';
import { ddb, resetClient, tableName } from '../../shared/store/db/client';
import { counterOf } from '../../shared/store/keys';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';
import { onEmulator } from '../support/stage';
import { useStage } from '../support/file-stage';
import { startThrottlingDynamo, type ThrottlingDynamo } from '../support/throttling-dynamo';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint';

const s = useStage();

const read = async (key: { PK: string; SK: string }) => (await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const tally = <T>(xs: T[]) => xs.reduce<Record<string, number>>((a, x) => ({ ...a, [String(x)]: (a[String(x)] ?? 0) + 1 }), {});

describe('a hot key behind a per-item write ceiling', () => {
  let throttle: ThrottlingDynamo;
  beforeAll(async () => {
    throttle = await startThrottlingDynamo(workerDynamoEndpoint(), 10);
    process.env.DYNAMODB_ENDPOINT = throttle.url;
    resetConfig();
    resetClient();
  });
  afterAll(async () => {
    process.env.DYNAMODB_ENDPOINT = workerDynamoEndpoint();
    resetConfig();
    resetClient();
    await throttle.close();
  });

  const check = (key: string, api: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: api });

  // The ceiling sits in front of this process's client; the emulated stack's functions reach
  // DynamoDB through the emulator's own endpoint (docs/developing/tests.md).
  it.skipIf(onEmulator)(
    'is sharded when throttled and never admits more than quota_max; a reset folds the shards back',
    async () => {
      const t = await s.tenant();
      const api = await makeApi(s, t.orgId);
      const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(api), quota_max: 150, quota_renewal_rate: 3600 });
      const results = await Promise.all(Array.from({ length: 200 }, () => check(key, api)));
      const statuses = tally(results.map((r) => r.status));
      const allowed = statuses['200'] ?? 0;
      expect(allowed).toBeLessThanOrEqual(150);
      expect(
        Object.keys(statuses).every((c) => ['200', '429', '503'].includes(c)),
        JSON.stringify(statuses),
      ).toBe(true);
      // A check that ran out of time answers 503 but may still have spent its unit (its write can
      // land after the early answer, as in Lambda); every other unit must be admitted before any
      // quota refusal: no false refusal.
      const timedOut = results.filter((r) => r.status === 503 && /ran out of time/.test(String(r.body?.message))).length;
      // Their writes may still land: the reads and the reset below come after the last one, once
      // every handler of this process (the in-process stage's) has ended, answered or not.
      await handlersDone();
      if (statuses['429']) expect(allowed + timedOut).toBeGreaterThanOrEqual(150);
      expect(results.filter((r) => r.status === 429).every((r) => r.body.reason === 'QuotaExceeded')).toBe(true);
      expect(throttle.stats.throttled).toBeGreaterThan(0);
      const head = await read(counterOf(keyHash(key), '').head);
      expect(typeof head?.shard_gen).toBe('string');
      // Reads sum the shards.
      const remaining = (await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining;
      expect(remaining).toBeLessThanOrEqual(150 - allowed);
      expect(remaining).toBeGreaterThanOrEqual(150 - allowed - timedOut);
      // A reset (the dashboard's PUT without suppress_reset) folds the shards back, then resets.
      const reset = await s.dash(t.key, 'PUT', `/api/apis/${api}/keys/${key}`, { access_rights: rightsFor(api), quota_max: 150, quota_renewal_rate: 3600 });
      expect(reset.status).toBe(200);
      expect((await read(counterOf(keyHash(key), '').head))?.shard_gen).toBeUndefined();
      expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(150);
      // The next check spends one unit of the fresh window. (Behind the ceiling it may shard the key
      // again, and a sharded check's quota_remaining is an estimate: the read is exact.)
      expect((await check(key, api)).body).toMatchObject({ allowed: true });
      expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(149);
      // Under load: checks that run out of time take 29 s.
    },
    180_000,
  );
});
