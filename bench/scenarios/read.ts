import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keyKeys } from '../../shared/store/keys';
import { apiAndKey, type Ctx } from '../lib/context';
import { call, timed } from '../lib/http';
import { interleaved, percentile, round, type Row } from '../lib/stats';

/** GET /gw/keys/{id} through the stage vs a raw GetItem of the same key item. */
export async function read(ctx: Ctx, samples = 2000): Promise<Row[]> {
  const { orgId } = await ctx.tenant('bench-read');
  const { key, hash } = await apiAndKey(ctx, orgId, { quota_max: 1000, quota_renewal_rate: 3600 });
  const viaStage = async () => {
    const r = await call(ctx.stage.url, 'GET', `/gw/keys/${key}`, ctx.gw);
    if (r.status !== 200) throw new Error(`GET key ${r.status}`);
    return r.ms;
  };
  const raw = () => timed(() => ctx.raw.send(new GetCommand({ TableName: ctx.stage.table, Key: keyKeys.key(hash), ConsistentRead: true })));
  await interleaved(200, viaStage, raw);
  const s = await interleaved(samples, viaStage, raw);
  // What the route's one read costs raw (key and live quota in one Query), beside the plain GetItem.
  const rawQuery = () =>
    timed(() =>
      ctx.raw.send(
        new QueryCommand({
          TableName: ctx.stage.table,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :a AND :b',
          ConsistentRead: true,
          ExpressionAttributeValues: { ':pk': keyKeys.partition(hash), ':a': 'KEY', ':b': 'QUOTA' },
        }),
      ),
    );
  const q = await interleaved(500, rawQuery, raw);
  // The same handler invoked in this process (no HTTP hop, no second process to wake): the
  // service's own code path, separated from what the machine's scheduling adds.
  const { handler } = await import('../../functions/keys/get');
  const event = {
    version: '2.0',
    routeKey: 'GET /gw/keys/{keyRef}',
    rawPath: `/gw/keys/${key}`,
    rawQueryString: '',
    headers: { ...ctx.gw },
    pathParameters: { keyRef: key },
    isBase64Encoded: false,
    requestContext: { requestId: 'bench', http: { method: 'GET', path: `/gw/keys/${key}`, sourceIp: '127.0.0.1', protocol: 'HTTP/1.1', userAgent: 'bench' } },
  };
  const inProcess = () =>
    timed(async () => {
      const r = (await handler(event as never, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 } as never)) as { statusCode: number };
      if (r.statusCode !== 200) throw new Error(`in-process GET key ${r.statusCode}`);
    });
  const local = await interleaved(1000, inProcess, raw);
  // The floor: a bare node:http server making the route's one call (the same Query), same client.
  const floorPath = `/query?pk=${encodeURIComponent(keyKeys.partition(hash))}&a=KEY&b=QUOTA`;
  const viaFloor = async () => {
    const r = await call(ctx.floor.url, 'GET', floorPath);
    if (r.status !== 200) throw new Error(`floor query ${r.status}`);
    return r.ms;
  };
  await interleaved(200, viaStage, viaFloor);
  const f = await interleaved(samples, viaStage, viaFloor);
  const floorP50 = percentile(f.a, 50) / percentile(f.b, 50);
  const floorP99 = percentile(f.a, 99) / percentile(f.b, 99);
  const p50 = percentile(s.a, 50) / percentile(s.b, 50);
  const p99 = percentile(s.a, 99) / percentile(s.b, 99);
  const detail = {
    stage_p50_ms: round(percentile(s.a, 50)),
    raw_p50_ms: round(percentile(s.b, 50)),
    stage_p99_ms: round(percentile(s.a, 99)),
    raw_p99_ms: round(percentile(s.b, 99)),
    samples,
    raw_query_p50_ms: round(percentile(q.a, 50)),
    raw_get_p50_ms_same_batch: round(percentile(q.b, 50)),
    in_process_handler_p50_ms: round(percentile(local.a, 50)),
    raw_get_p50_ms_beside_it: round(percentile(local.b, 50)),
    in_process_ratio_p50: round(percentile(local.a, 50) / percentile(local.b, 50)),
    floor_p50_ms: round(percentile(f.b, 50)),
    stage_p50_ms_beside_floor: round(percentile(f.a, 50)),
    floor_p99_ms: round(percentile(f.b, 99)),
    stage_p99_ms_beside_floor: round(percentile(f.a, 99)),
    floor_vs_raw_get_p50: round(percentile(f.b, 50) / percentile(s.b, 50)),
  };
  return [
    {
      scenario: 'read',
      measured: 'GET /gw/keys/{id} / floor (bare node:http, same Query), p50',
      value: round(floorP50),
      target: '<= 1.15',
      pass: floorP50 <= 1.15,
      detail,
    },
    {
      scenario: 'read',
      measured: 'GET /gw/keys/{id} / floor (bare node:http, same Query), p99',
      value: round(floorP99),
      target: 'reported',
      pass: true,
      detail,
    },
    { scenario: 'read', measured: 'GET /gw/keys/{id} / raw GetItem, p50', value: round(p50), target: '<= 1.25', pass: p50 <= 1.25, detail },
    { scenario: 'read', measured: 'GET /gw/keys/{id} / raw GetItem, p99', value: round(p99), target: '<= 1.5', pass: p99 <= 1.5, detail },
  ];
}
