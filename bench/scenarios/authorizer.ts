/**
 * The Lambda authorizer as Lambda bills it, in the emulator (docs/using/serving-apis.md): the
 * `-c demo=on` stack's authorizer bundle, invoked with API Gateway's authorizer event for a key
 * with quota (one unit spent per call), against a floor function bundled the same way that sends
 * only the check's conditional UpdateItem; and its cold INIT against the SDK-only function. Both
 * yardsticks are added to a copy of the template with the authorizer's role, memory and
 * environment, so they run under the same IAM checks. Warm: `Duration` (what AWS bills, rounded up
 * to the millisecond), interleaved; cold: INIT, `runs` alternating pairs.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cloudAssembly } from '../../test/support/assembly';
import { DEMO_API_ID } from '../../infra/constructs/gateway-authorizer';
import { authorizerEvent } from '../../infra/local/emulator/authorizer';
import { startEmulator } from '../../infra/local/emulator/stage';
import { apiGatewayEvent } from '../../infra/local/event';
import type { Ctx } from '../lib/context';
import { functionAsset, SDK_ONLY_SOURCE, UPDATE_ONLY_SOURCE } from '../lib/function-asset';
import { interleaved, median, percentile, round, type Row } from '../lib/stats';
import { withYardsticks } from '../lib/yardsticks';

const AUTHORIZER = 'demoAuthorizer';

/**
 * us-east-1 list prices (USD), first tier, without free tiers, as aws.amazon.com/lambda/pricing,
 * /dynamodb/pricing/on-demand and /api-gateway/pricing published them (read 2026-11-25; BENCHMARKS.md
 * "What a million authorized requests cost").
 */
const PRICES = {
  lambdaArmGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  httpApiRequest: 1.0 / 1e6,
  restApiRequest: 3.5 / 1e6,
};

/** A million authorized requests through an HTTP API with the authorizer: each spends one write unit (the quota's UpdateItem, under 1 KB). */
function costPerMillion(billedMs: number, memoryMb: number) {
  const n = 1e6;
  const lambda = n * (billedMs / 1000) * (memoryMb / 1024) * PRICES.lambdaArmGbSecond + n * PRICES.lambdaRequest;
  const dynamo = n * PRICES.dynamoWriteUnit;
  const api = n * PRICES.httpApiRequest;
  return { lambda, dynamo, api, total: lambda + dynamo + api };
}

export async function authorizer(ctx: Ctx, opts = { warm: 300, runs: 5 }): Promise<Row[]> {
  const { template } = await cloudAssembly({ demo: 'on' });
  const assets = { floor: await functionAsset('update-only', UPDATE_ONLY_SOURCE), sdkOnly: await functionAsset('sdk-only', SDK_ONLY_SOURCE) };
  // The two yardsticks beside the authorizer, on its role (the -c demo=on stack has it).
  const copy = withYardsticks(
    template,
    AUTHORIZER,
    { BenchUpdateOnly: { name: 'updateOnly', asset: assets.floor }, BenchSdkOnly: { name: 'sdkOnly', asset: assets.sdkOnly } },
    'authorizer',
  );
  const denied: string[] = [];
  const emulator = await startEmulator({
    templateFile: copy.file,
    dataDir: join(copy.dir, 'data'),
    tableName: ctx.stage.table,
    dynamoEndpoint: ctx.stage.endpoint,
    env: {},
    log: (line) => line.startsWith('DENIED ') && denied.push(line),
    concurrency: 1,
  });
  try {
    const fns = [...emulator.stage.functions.values()];
    const idOf = (name: string) => fns.find((f) => f.name === name)!.logicalId;
    const [auth, floor, sdkOnly] = [idOf(AUTHORIZER), idOf('updateOnly'), idOf('sdkOnly')];
    const memoryMb = emulator.stage.functions.get(auth)!.memoryMb;

    // Cold first (each start is stopped again), then warm on one container each.
    const inits = { auth: [] as number[], sdk: [] as number[] };
    for (let i = 0; i < opts.runs; i++) {
      const order: Array<[string, number[]]> =
        i % 2 === 0
          ? [
              [sdkOnly, inits.sdk],
              [auth, inits.auth],
            ]
          : [
              [auth, inits.auth],
              [sdkOnly, inits.sdk],
            ];
      for (const [id, into] of order) {
        const o = await emulator.runtimes.get(id)!.coldStart();
        if (!o.ok) throw new Error(`${id} INIT failed: ${o.error.errorMessage}`);
        into.push(o.initMs!);
      }
    }
    const initRatios = inits.auth.map((a, i) => a / inits.sdk[i]!);

    // The demo API and a key whose quota never runs out in the run: every call spends one unit.
    const { orgId } = await ctx.tenant('bench-authorizer');
    const api = await fetch(`${ctx.stage.url}/gw/apis`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gw-authorization': ctx.stage.gwSecret },
      body: JSON.stringify({ api_id: DEMO_API_ID, name: 'Demo', org_id: orgId, proxy: { listen_path: '/demo/', target_url: 'http://upstream.example' } }),
    });
    if (api.status !== 200 && api.status !== 409) throw new Error(`demo api: ${api.status} ${await api.text()}`);
    const grantKey = await fetch(`${ctx.stage.url}/gw/keys/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gw-authorization': ctx.stage.gwSecret },
      body: JSON.stringify({
        org_id: orgId,
        access_rights: { [DEMO_API_ID]: { api_id: DEMO_API_ID, api_name: 'Demo', versions: ['Default'] } },
        quota_max: 1_000_000,
        quota_renewal_rate: 3600,
      }),
    });
    const demoKey = ((await grantKey.json()) as { key: string }).key;
    const request = apiGatewayEvent(
      {
        method: 'GET',
        url: new URL('http://local/demo/pets'),
        headers: { authorization: demoKey, host: 'local' },
        body: undefined,
        sourceIp: '127.0.0.1',
        protocol: 'HTTP/1.1',
      },
      { routeKey: 'ANY /demo/{proxy+}', pathParameters: { proxy: 'pets' } },
    );
    const authEvent = authorizerEvent(request, [demoKey], emulator.stage.executeApiArn);

    // The floor's quota item, under a partition key the authorizer's role may write.
    const update = emulator.stage.functions.get(auth)!.statements.find((s) => s.actions.some((a) => /UpdateItem|\*/.test(a)));
    const pk = (update?.leadingKeys?.[0] ?? 'BENCHA#*').replace('*', `bench-${Date.now().toString(36)}`);
    await ctx.raw.send(new PutCommand({ TableName: ctx.stage.table, Item: { PK: pk, SK: 'QUOTA', used: 0, renews: 253_402_300_799 } }));
    const floorEvent = { pk, sk: 'QUOTA', max: 1_000_000 };

    const failures: string[] = [];
    const timed = (id: string, event: unknown) => async () => {
      const o = await emulator.invoke(id, event);
      const allowed = o.ok && (o.result as { isAuthorized?: boolean }).isAuthorized === true;
      if (!allowed) failures.push(`${id}: ${o.ok ? JSON.stringify(o.result) : o.error.errorMessage}`);
      return o.durationMs;
    };
    await interleaved(30, timed(auth, authEvent), timed(floor, floorEvent));
    const warm = await interleaved(opts.warm, timed(auth, authEvent), timed(floor, floorEvent));
    const billed = (xs: number[]) => median(xs.map((x) => Math.ceil(x)));
    const p50 = median(warm.a) / median(warm.b);
    const billedRatio = billed(warm.a) / billed(warm.b);
    const initRatio = median(initRatios);
    const detail = {
      memory_mb: memoryMb,
      authorizer_duration_p50_ms: round(median(warm.a)),
      floor_duration_p50_ms: round(median(warm.b)),
      authorizer_duration_p90_ms: round(percentile(warm.a, 90)),
      floor_duration_p90_ms: round(percentile(warm.b, 90)),
      authorizer_billed_p50_ms: billed(warm.a),
      floor_billed_p50_ms: billed(warm.b),
      billed_ratio: round(billedRatio),
      warm_invocations_each: opts.warm,
      authorizer_init_ms: round(median(inits.auth)),
      sdk_only_init_ms: round(median(inits.sdk)),
      init_pairs: opts.runs,
      iam_denials: denied.length,
      failures: failures.slice(0, 3).join('; ') || 'none',
    };
    const clean = failures.length === 0 && denied.length === 0;
    const cost = costPerMillion(billed(warm.a), memoryMb);
    const costDetail = {
      billed_ms: billed(warm.a),
      memory_mb: memoryMb,
      lambda_usd: round(cost.lambda, 3),
      dynamodb_writes_usd: round(cost.dynamo, 3),
      http_api_usd: round(cost.api, 3),
      rest_api_usage_plan_requests_usd: round(1e6 * PRICES.restApiRequest, 3),
    };
    return [
      {
        scenario: 'lambda authorizer',
        measured: 'warm Duration / floor function (one conditional UpdateItem), p50',
        value: round(p50),
        target: '<= 1.3',
        pass: p50 <= 1.3 && clean,
        detail,
      },
      {
        scenario: 'lambda authorizer',
        measured: `cold Init Duration / SDK-only function, median of ${opts.runs} pairs`,
        value: round(initRatio),
        target: '<= 1.3',
        pass: initRatio <= 1.3 && clean,
        detail,
      },
      {
        scenario: 'lambda authorizer',
        measured: 'USD per million authorized requests, us-east-1 (Lambda arm64 at the billed p50 + DynamoDB writes + HTTP API)',
        value: round(cost.total, 2),
        target: 'reported',
        pass: true,
        detail: costDetail,
      },
    ];
  } finally {
    await emulator.stop();
    rmSync(copy.dir, { recursive: true, force: true });
    rmSync(copy.file, { force: true });
  }
}
