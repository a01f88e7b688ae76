import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimit } from '../../shared/lib/concurrency';
import { apiAndKey, type Ctx } from '../lib/context';
import { call, timed } from '../lib/http';
import { median, round, type Row } from '../lib/stats';

const RECORDS = 1000;

/**
 * POST /gw/analytics with 1,000 records that each open a new hourly counter (the worst case: no
 * two records share a counter), against the floor of the same writes done raw: the 1,000 counter
 * ADDs as 11 TransactWriteItems of up to 100, 4 in flight. The stage adds the key lookup, the
 * batch claim and the read of the counters' minima and maxima, hence a target of 2.5. Also the
 * retry of a batch that was already applied.
 */
export async function analytics(ctx: Ctx, runs = 5): Promise<Row[]> {
  const { orgId } = await ctx.tenant('bench-analytics');
  const { apiId, hash } = await apiAndKey(ctx, orgId);
  const batch = (run: number) => ({
    batch_id: `bench-${Date.now().toString(36)}-${run}`,
    records: Array.from({ length: RECORDS }, (_, i) => ({
      api_id: apiId,
      path: `/items/${i}`,
      method: 'GET',
      response_code: i % 10 ? 200 : 500,
      key_hash: hash,
      org_id: orgId,
      timestamp: new Date(Date.UTC(2024, 0, 1, run)).toISOString(),
      request_time: 10 + (i % 7),
      latency: { total: 10 + (i % 13), upstream: 5 + (i % 11) },
    })),
  });
  const stage: number[] = [];
  const retry: number[] = [];
  const raw: number[] = [];
  for (let run = 0; run < runs; run++) {
    const body = batch(run);
    const first = await call(ctx.stage.url, 'POST', '/gw/analytics', ctx.gw, body);
    if (first.status !== 200 || first.body.stored !== RECORDS) throw new Error(`analytics ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
    stage.push(first.ms);
    const again = await call(ctx.stage.url, 'POST', '/gw/analytics', ctx.gw, body);
    if (again.status !== 200) throw new Error(`analytics retry ${again.status} ${JSON.stringify(again.body).slice(0, 300)}`);
    retry.push(again.ms);
    const chunks = Array.from({ length: Math.ceil(RECORDS / 100) }, (_, c) =>
      body.records.slice(c * 100, c * 100 + 100).map((r, i) => ({ r, i: c * 100 + i })),
    );
    raw.push(
      await timed(() =>
        mapLimit(chunks, 4, (chunk) =>
          ctx.raw.send(
            new TransactWriteCommand({
              TransactItems: chunk.map(({ r, i }) => ({
                Update: {
                  TableName: ctx.stage.table,
                  Key: { PK: `BENCHA#${run}`, SK: String(i) },
                  UpdateExpression: 'ADD hits :one, latency_sum :l',
                  ExpressionAttributeValues: { ':one': 1, ':l': r.latency.total },
                },
              })),
            }),
          ),
        ),
      ),
    );
  }
  const ratio = median(stage) / median(raw);
  return [
    {
      scenario: 'analytics',
      measured: 'POST /gw/analytics, 1,000 new counters / the same ADDs in raw transactions, median',
      value: round(ratio),
      target: '<= 2.5',
      pass: ratio <= 2.5,
      detail: { stage_median_ms: round(median(stage)), raw_median_ms: round(median(raw)), retry_of_applied_batch_median_ms: round(median(retry)), runs },
    },
  ];
}
