import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../lib/context';
import { call, timed } from '../lib/http';
import { interleaved, percentile, round, type Row } from '../lib/stats';

/** POST /api/hooks through the stage vs a raw PutItem of an item of the same size. */
export async function write(ctx: Ctx, samples = 1000): Promise<Row[]> {
  // An organisation holds at most 100 webhooks: the samples spread over as many as they need.
  const owner = ctx.hookOwners('bench-write');
  const hook = { name: 'bench hook', method: 'POST', target_path: 'https://hooks.example.com/gateway/events', header_map: { 'x-token': 'abc123' } };
  let n = 0;
  const viaStage = async () => {
    const r = await call(ctx.stage.url, 'POST', '/api/hooks', await owner(), hook);
    if (r.status !== 200) throw new Error(`POST hook ${r.status} ${JSON.stringify(r.body)}`);
    return r.ms;
  };
  // The stored hook item: the hook, its ids, times, version and index keys (about 400 bytes).
  const filler = 'x'.repeat(400 - JSON.stringify(hook).length);
  const raw = () => timed(() => ctx.raw.send(new PutCommand({ TableName: ctx.stage.table, Item: { PK: `BENCH#${++n}`, SK: 'BENCH', ...hook, filler } })));
  await interleaved(100, viaStage, raw);
  const s = await interleaved(samples, viaStage, raw);
  // The floor of the route's write: the hook and its organisation's list counter in one transaction.
  const rawTx = () =>
    timed(() =>
      ctx.raw.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: { TableName: ctx.stage.table, Item: { PK: `BENCH#${++n}`, SK: 'BENCH', ...hook, filler }, ConditionExpression: 'attribute_not_exists(PK)' },
            },
            {
              Update: {
                TableName: ctx.stage.table,
                Key: { PK: 'BENCH#COUNT', SK: 'COUNT' },
                UpdateExpression: 'ADD n :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        }),
      ),
    );
  const tx = await interleaved(300, rawTx, raw);
  const p50 = percentile(s.a, 50) / percentile(s.b, 50);
  // The floor: a bare node:http server making the route's one transaction (hook, list counter, write unit), same client, same commit wait.
  const viaFloor = async () => {
    const r = await call(ctx.floor.url, 'POST', '/tx', {}, { pk: `BENCH#F${++n}`, item: { ...hook, filler } });
    if (r.status !== 200) throw new Error(`floor tx ${r.status}`);
    return r.ms;
  };
  await interleaved(100, viaStage, viaFloor);
  const f = await interleaved(samples, viaStage, viaFloor);
  const floorP50 = percentile(f.a, 50) / percentile(f.b, 50);
  return [
    {
      scenario: 'write',
      measured: 'POST /api/hooks / floor (bare node:http, same transaction), p50',
      value: round(floorP50),
      target: '<= 1.15',
      pass: floorP50 <= 1.15,
      detail: {
        stage_p50_ms: round(percentile(f.a, 50)),
        floor_p50_ms: round(percentile(f.b, 50)),
        stage_p99_ms: round(percentile(f.a, 99)),
        floor_p99_ms: round(percentile(f.b, 99)),
        samples,
      },
    },
    {
      scenario: 'write',
      measured: 'POST /api/hooks / raw PutItem, p50',
      value: round(p50),
      target: '<= 1.5',
      pass: p50 <= 1.5,
      detail: {
        stage_p50_ms: round(percentile(s.a, 50)),
        raw_p50_ms: round(percentile(s.b, 50)),
        samples,
        raw_transaction_p50_ms: round(percentile(tx.a, 50)),
        raw_put_p50_ms_beside_it: round(percentile(tx.b, 50)),
        raw_transaction_ratio: round(percentile(tx.a, 50) / percentile(tx.b, 50)),
      },
    },
  ];
}
