import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { awaitLocalCommits } from '../../infra/local/commit-wait';
import { freePort } from '../../infra/local/dynamodb-local';
import type { Ctx } from '../lib/context';
import { UNLIMITED_ORGS } from '../lib/stage';
import { call, timed } from '../lib/http';
import { interleaved, median, percentile, round, type Row } from '../lib/stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The cost of the local stage's commit wait (infra/local/commit-wait.ts): the same transactional
 * create (an item under a condition and its organisation's counter, as POST /api/hooks writes)
 * sent raw to the stage's DynamoDB Local by two clients in one run, one of them waiting for the
 * commit as the stage does: sequential latency, and throughput of concurrent writers (one
 * organisation each, so no transaction conflicts with another). Then POST /api/hooks through the
 * bench's stage and through a second stage started with `LOCAL_COMMIT_WAIT=off` on the same
 * DynamoDB Local, alternately.
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
    c.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: ctx.stage.table, Item: { PK: `COMMIT#${org}`, SK: `HOOK#${++n}`, filler }, ConditionExpression: 'attribute_not_exists(PK)' } },
          {
            Update: {
              TableName: ctx.stage.table,
              Key: { PK: `COMMIT#${org}`, SK: 'COUNT' },
              UpdateExpression: 'ADD n :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
        ],
      }),
    );

  await interleaved(
    50,
    () => timed(() => create(waiting, 'warm')),
    () => timed(() => create(plain, 'warm')),
  );
  const seq = await interleaved(
    samples,
    () => timed(() => create(waiting, 'seq')),
    () => timed(() => create(plain, 'seq')),
  );

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
    {
      scenario: 'commit wait',
      measured: 'transactional create with / without commit wait, p50',
      value: round(p50),
      target: '<= 1.5',
      pass: p50 <= 1.5,
      detail,
    },
    {
      scenario: 'commit wait',
      measured: `transactional creates/s with / without commit wait, ${writers} writers`,
      value: round(throughput),
      target: '>= 0.8',
      pass: throughput >= 0.8,
      detail,
    },
    {
      scenario: 'commit wait',
      measured: 'POST /api/hooks with / without commit wait, p50',
      value: round(stage),
      target: '<= 1.25',
      pass: stage <= 1.25,
      detail,
    },
  ];
}

/**
 * `npm start`'s entry point with `LOCAL_COMMIT_WAIT=off`, on the bench stage's own DynamoDB
 * Local, table and credentials: the two stages differ only in the commit wait.
 */
async function stageWithoutCommitWait(ctx: Ctx): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-nowait-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/local/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DYNAMODB_ENDPOINT: ctx.stage.endpoint,
      TABLE_NAME: ctx.stage.table,
      GW_SECRET: ctx.stage.gwSecret,
      ADMIN_SECRET: ctx.stage.adminSecret,
      LOG_LEVEL: 'info',
      LOCAL_COMMIT_WAIT: 'off',
      ...UNLIMITED_ORGS,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('the stage without commit wait did not start');
    }
    const up = await call(url, 'GET', '/hello').then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return { url, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** POST /api/hooks latencies, alternately: `a` through the bench's stage, `b` through one without the commit wait. */
async function hookCreates(ctx: Ctx, samples: number): Promise<{ a: number[]; b: number[] }> {
  const without = await stageWithoutCommitWait(ctx);
  try {
    // An organisation holds at most 100 webhooks: the samples spread over as many as they need.
    const owner = ctx.hookOwners('bench-commit-wait');
    const hook = { name: 'bench hook', method: 'POST', target_path: 'https://hooks.example.com/gateway/events' };
    const create = (url: string) => async () => {
      const dash = await owner();
      const r = await call(url, 'POST', '/api/hooks', dash, hook);
      if (r.status !== 200) throw new Error(`POST hook ${r.status} ${JSON.stringify(r.body)}`);
      return r.ms;
    };
    await interleaved(300, create(ctx.stage.url), create(without.url));
    return await interleaved(samples, create(ctx.stage.url), create(without.url));
  } finally {
    await without.stop();
  }
}
