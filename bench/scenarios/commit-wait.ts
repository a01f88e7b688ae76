import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { awaitLocalCommits } from '../../infra/local/commit-wait';
import type { Ctx } from '../lib/context';
import { call, timed } from '../lib/http';
import { startBenchStage, type BenchStage } from '../lib/stage';
import { interleaved, median, percentile, round, type Row } from '../lib/stats';

/**
 * The cost of the local stage's commit wait (infra/local/commit-wait.ts): the same transactional
 * create (an item under a condition and its organisation's counter, as POST /api/hooks writes)
 * sent raw to the stage's DynamoDB Local by two clients in one run, one of them waiting for the
 * commit as the stage does: sequential latency, and throughput of concurrent writers (one
 * organisation each, so no transaction conflicts with another). Then POST /api/hooks through the
 * bench's stage and through a second stage started with `LOCAL_COMMIT_WAIT=off`, alternately.
 */
export async function commitWait(ctx: Ctx, samples = 500, writers = 16, perRound = 400, rounds = 4): Promise<Row[]> {
  const client = () =>
    DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: ctx.stage.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
  const plain = client();
  const waiting = client();
  awaitLocalCommits(waiting);
  const filler = 'x'.repeat(300);
  let n = 0;
  const create = (c: DynamoDBDocumentClient, org: string) =>
    c.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: ctx.stage.table, Item: { PK: `COMMIT#${org}`, SK: `HOOK#${++n}`, filler }, ConditionExpression: 'attribute_not_exists(PK)' } },
        { Update: { TableName: ctx.stage.table, Key: { PK: `COMMIT#${org}`, SK: 'COUNT' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
      ],
    }));

  await interleaved(50, () => timed(() => create(waiting, 'warm')), () => timed(() => create(plain, 'warm')));
  const seq = await interleaved(samples, () => timed(() => create(waiting, 'seq')), () => timed(() => create(plain, 'seq')));

  /** `perRound` creates by `writers` concurrent writers: creates per second and each create's latency. */
  const burst = async (c: DynamoDBDocumentClient, round: number) => {
    let left = perRound;
    const ms: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        while (left-- > 0) ms.push(await timed(() => create(c, `r${round}w${w}`)));
      }),
    );
    return { perSecond: perRound / ((performance.now() - t0) / 1000), ms };
  };
  const rate = { with: [] as number[], without: [] as number[] };
  const lat = { with: [] as number[], without: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    // Alternating which goes first, so drift of a shared machine hits both alike.
    for (const mode of r % 2 ? (['without', 'with'] as const) : (['with', 'without'] as const)) {
      const b = await burst(mode === 'with' ? waiting : plain, r);
      rate[mode].push(b.perSecond);
      lat[mode].push(...b.ms);
    }
  }
  plain.destroy();
  waiting.destroy();
  const hooks = await hookCreates(ctx, samples);

  const p50 = percentile(seq.a, 50) / percentile(seq.b, 50);
  const throughput = median(rate.with) / median(rate.without);
  const detail = {
    sequential_p50_ms_with: round(percentile(seq.a, 50)),
    sequential_p50_ms_without: round(percentile(seq.b, 50)),
    sequential_p99_ms_with: round(percentile(seq.a, 99)),
    sequential_p99_ms_without: round(percentile(seq.b, 99)),
    samples,
    writers,
    per_second_with: round(median(rate.with), 0),
    per_second_without: round(median(rate.without), 0),
    concurrent_p50_ms_with: round(percentile(lat.with, 50)),
    concurrent_p50_ms_without: round(percentile(lat.without, 50)),
    rounds: `${rounds} × ${perRound} creates each way`,
    stage_hook_p50_ms_with: round(percentile(hooks.a, 50)),
    stage_hook_p50_ms_without: round(percentile(hooks.b, 50)),
  };
  const stage = percentile(hooks.a, 50) / percentile(hooks.b, 50);
  return [
    { scenario: 'commit wait', measured: 'transactional create with / without commit wait, p50', value: round(p50), target: '<= 1.5', pass: p50 <= 1.5, detail },
    {
      scenario: 'commit wait', measured: `transactional creates/s with / without commit wait, ${writers} writers`, value: round(throughput), target: '>= 0.8',
      pass: throughput >= 0.8, detail,
    },
    { scenario: 'commit wait', measured: 'POST /api/hooks with / without commit wait, p50', value: round(stage), target: '<= 1.25', pass: stage <= 1.25, detail },
  ];
}

/** A dashboard credential of a new organisation of `stage`. */
async function dashboardKey(stage: BenchStage): Promise<Record<string, string>> {
  const admin = { 'admin-auth': stage.adminSecret };
  const orgId = `commit-wait-${Date.now().toString(36)}`;
  const org = await call(stage.url, 'POST', '/admin/organisations', admin, { id: orgId });
  const user = await call(stage.url, 'POST', '/admin/users', admin, { org_id: orgId, email_address: `bench@${orgId}.example` });
  if (org.status !== 200 || user.status !== 200) throw new Error(`tenant: ${JSON.stringify([org.body, user.body])}`);
  return { authorization: `Bearer ${user.body.Meta.access_key}` };
}

/** POST /api/hooks latencies: `a` through the bench's stage, `b` through one without the commit wait. */
async function hookCreates(ctx: Ctx, samples: number): Promise<{ a: number[]; b: number[] }> {
  const saved = process.env.LOCAL_COMMIT_WAIT;
  process.env.LOCAL_COMMIT_WAIT = 'off';
  let without: BenchStage;
  try {
    without = await startBenchStage();
  } finally {
    if (saved === undefined) delete process.env.LOCAL_COMMIT_WAIT;
    else process.env.LOCAL_COMMIT_WAIT = saved;
  }
  try {
    const hook = { name: 'bench hook', method: 'POST', target_path: 'https://hooks.example.com/gateway/events' };
    const create = (stage: BenchStage, dash: Record<string, string>) => async () => {
      const r = await call(stage.url, 'POST', '/api/hooks', dash, hook);
      if (r.status !== 200) throw new Error(`POST hook ${r.status} ${JSON.stringify(r.body)}`);
      return r.ms;
    };
    const withWait = create(ctx.stage, await dashboardKey(ctx.stage));
    const withoutWait = create(without, await dashboardKey(without));
    await interleaved(100, withWait, withoutWait);
    return await interleaved(samples, withWait, withoutWait);
  } finally {
    await without.stop();
  }
}
