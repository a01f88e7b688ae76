import autocannon from 'autocannon';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../shared/store/db/items';
import { apiAndKey, type Ctx } from '../lib/context';
import { cpuDuring } from '../lib/cpu-time';
import { round, type Row } from '../lib/stats';

type Timed = autocannon.Result & { seconds: number };

/**
 * An autocannon run and how long it took from its start to its last answer. autocannon's own
 * `duration` (and its start and finish) end on its once-a-second tick: at these rates a step of
 * 12-20 %, which made the throughput ratios jump between 0.5, 0.6, 0.71 and 0.86 from run to run.
 */
function timed(opts: autocannon.Options): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let last = started;
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve({ ...result, seconds: (last - started) / 1000 })));
    instance.on('response', () => {
      last = performance.now();
    });
  });
}

const CONCURRENCY = 50;
const ATTEMPTS = 3000;
const QUOTA = 2000;

/** Raw baseline: the same conditional ADD the check spends with, straight to DynamoDB Local. */
async function rawThroughput(ctx: Ctx): Promise<{ perSecond: number; allowed: number }> {
  const Key = { PK: `BENCHQ#${Date.now()}`, SK: 'QUOTA' };
  await ctx.raw.send(new PutCommand({ TableName: ctx.stage.table, Item: { ...Key, used: 0, renews: 253_402_300_799 } }));
  let left = ATTEMPTS;
  let allowed = 0;
  const worker = async () => {
    while (left-- > 0) {
      try {
        await ctx.raw.send(
          new UpdateCommand({
            TableName: ctx.stage.table,
            Key,
            UpdateExpression: 'ADD used :one',
            ConditionExpression: 'used < :max AND renews > :now',
            ExpressionAttributeValues: { ':one': 1, ':max': QUOTA, ':now': Math.floor(Date.now() / 1000) },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        allowed++;
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { perSecond: ATTEMPTS / ((performance.now() - t0) / 1000), allowed };
}

/**
 * The floor: the same conditional ADD per request through a bare node:http server (bench/floor.ts),
 * 3,000 attempts at 50 connections, on an item with the same quota.
 */
async function floorThroughput(ctx: Ctx): Promise<{ perSecond: number; allowed: number; p50: number; cpu: number[] }> {
  const Key = { PK: `BENCHF#${Date.now()}-${Math.random().toString(36).slice(2)}`, SK: 'QUOTA' };
  await ctx.raw.send(new PutCommand({ TableName: ctx.stage.table, Item: { ...Key, used: 0, renews: 253_402_300_799 } }));
  const { result, cpu } = await cpuDuring([ctx.floor.pid, ctx.stage.dynamoPid, ctx.stage.pid], () =>
    timed({
      url: `${ctx.floor.url}/add`,
      method: 'POST',
      connections: CONCURRENCY,
      amount: ATTEMPTS,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pk: Key.PK, sk: Key.SK, max: QUOTA }),
    }),
  );
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
  return { perSecond: ATTEMPTS / result.seconds, allowed: codes['200']?.count ?? 0, p50: result.latency.p50, cpu };
}

/** 50 concurrent POST /gw/sessions/check on one key with quota 2,000, 3,000 attempts. */
export async function quota(ctx: Ctx): Promise<Row[]> {
  const { orgId } = await ctx.tenant('bench-quota');
  const { key, apiId } = await apiAndKey(ctx, orgId, { quota_max: QUOTA, quota_renewal_rate: 3600 });
  const warm = await apiAndKey(ctx, orgId, { quota_max: -1 });
  const body = (k: string, api: string) => JSON.stringify({ key: k, api_id: api, path: '/x', method: 'GET' });
  const fire = (k: string, api: string, amount: number) =>
    timed({
      url: `${ctx.stage.url}/gw/sessions/check`,
      method: 'POST',
      connections: CONCURRENCY,
      amount,
      headers: { ...ctx.gw, 'content-type': 'application/json' },
      body: body(k, api),
    });
  await fire(warm.key, warm.apiId, 500);
  await rawThroughput(ctx);
  await floorThroughput(ctx);
  // CPU of the stage, DynamoDB Local and the floor while the checks run (the floor idles).
  const { result, cpu: stageCpu } = await cpuDuring([ctx.stage.pid, ctx.stage.dynamoPid, ctx.floor.pid], () => fire(key, apiId, ATTEMPTS));
  const raw = await rawThroughput(ctx);
  const floor = await floorThroughput(ctx);
  const floorRatio = ATTEMPTS / result.seconds / floor.perSecond;
  const floorP50 = result.latency.p50 / floor.p50;
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const allowed = codes['200']?.count ?? 0;
  const denied = codes['429']?.count ?? 0;
  const perSecond = ATTEMPTS / result.seconds;
  const ratio = perSecond / raw.perSecond;
  const detail = {
    allowed,
    denied_429: denied,
    other: ATTEMPTS - allowed - denied,
    stage_per_s: round(perSecond, 0),
    raw_per_s: round(raw.perSecond, 0),
    raw_allowed: raw.allowed,
    floor_per_s: round(floor.perSecond, 0),
    floor_allowed: floor.allowed,
    stage_p50_ms: result.latency.p50,
    floor_p50_ms: floor.p50,
    // CPU per request: the server's own, and DynamoDB Local's during the same run (the JVM also
    // serves the stage's change feed while the checks run, and during the floor's run too).
    stage_cpu_ms_per_check: round(stageCpu[0]! / ATTEMPTS, 2),
    floor_cpu_ms_per_check: round(floor.cpu[0]! / ATTEMPTS, 2),
    dynamodb_cpu_ms_per_check: round(stageCpu[1]! / ATTEMPTS, 2),
    dynamodb_cpu_ms_per_floor_request: round(floor.cpu[1]! / ATTEMPTS, 2),
    stage_idle_cpu_ms_during_floor: round(floor.cpu[2]!, 0),
  };
  return [
    {
      scenario: 'quota contention',
      measured: 'allowed of 3,000 checks, quota 2,000',
      value: allowed,
      target: '= 2000',
      pass: allowed === QUOTA && denied === ATTEMPTS - QUOTA,
      detail,
    },
    {
      scenario: 'quota contention',
      measured: 'checks/s / floor (bare node:http, same conditional ADD)/s',
      value: round(floorRatio),
      target: '>= 0.8',
      pass: floorRatio >= 0.8,
      detail,
    },
    {
      scenario: 'quota contention',
      measured: 'check p50 / floor p50 (50 connections)',
      value: round(floorP50),
      target: '<= 1.2',
      pass: floorP50 <= 1.2,
      detail,
    },
    { scenario: 'quota contention', measured: 'checks/s / raw conditional UpdateItem/s', value: round(ratio), target: '>= 0.8', pass: ratio >= 0.8, detail },
  ];
}
