/**
 * Real nginx in front of an API (docs/using/serving-apis.md): the same example config
 * (examples/nginx/api-gateway.conf) authorising through the stage's /gw/ext-authz, and through
 * the floor auth server (bench/floor.ts: one raw conditional UpdateItem per request), 50
 * concurrent clients, 1,500 requests on a quota of 1,000 that runs out mid-run. Five rounds of
 * each, interleaved, each on a fresh quota: the ratios are the medians of the rounds' (one round
 * swings them by a tenth on two shared cores), and each round must allow exactly 1,000.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Agent, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startNginx } from '../../test/support/nginx';
import { apiAndKey, type Ctx } from '../lib/context';
import { cpuDuring } from '../lib/cpu-time';
import { interleaved, median, percentile, round, type Row } from '../lib/stats';

const CONNECTIONS = 50;
const ATTEMPTS = 1500;
const QUOTA = 1000;
const ROUNDS = 5;

type Run = { perSecond: number; p50: number; allowed: number; refused: number; other: number; codes: string; reconnects: number; cpuMsPerRequest: number };

/**
 * CONNECTIONS clients, each sending its next request when its answer arrives, until ATTEMPTS
 * were answered. Not autocannon: nginx closes the client's connection after every refusal it
 * maps from the auth subrequest (docs/using/serving-apis.md), and autocannon's fixed amount
 * then loses the requests pipelined on it (237 of 1,500 went unanswered and uncounted).
 */
export async function fire(url: string, headers: Record<string, string>, authServerPid: number): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let sockets = 0;
  const codes = new Map<number, number>();
  const latencies: number[] = [];
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      const req = get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          codes.set(res.statusCode!, (codes.get(res.statusCode!) ?? 0) + 1);
          resolve();
        });
      });
      req.on('socket', (s) => {
        if (!(s as { counted?: boolean }).counted) {
          (s as { counted?: boolean }).counted = true;
          sockets++;
        }
      });
      req.on('error', reject);
    });
  const started = performance.now();
  const { cpu } = await cpuDuring([authServerPid], () =>
    Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (sent < ATTEMPTS) {
          sent++;
          await one();
        }
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMsPerRequest = round(cpu[0]! / ATTEMPTS);
  agent.destroy();
  const allowed = codes.get(200) ?? 0;
  const refused = codes.get(429) ?? 0;
  return {
    perSecond: ATTEMPTS / seconds,
    p50: round(percentile(latencies, 50)),
    allowed,
    refused,
    other: ATTEMPTS - allowed - refused,
    codes: [...codes].map(([code, n]) => `${code}:${n}`).join(' '),
    reconnects: sockets - CONNECTIONS,
    cpuMsPerRequest,
  };
}

export async function gateways(ctx: Ctx): Promise<Row[]> {
  const upstream = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const viaStage = await startNginx({ control: ctx.stage.url, secret: ctx.stage.gwSecret, upstream: upstreamUrl });
  const viaFloor = await startNginx({ control: ctx.floor.url, secret: 'none', upstream: upstreamUrl });
  try {
    const { orgId } = await ctx.tenant('bench-gateways');
    const floorItem = async () => {
      const pk = `BENCHG#${Date.now()}-${Math.random().toString(36).slice(2)}`;
      await ctx.raw.send(new PutCommand({ TableName: ctx.stage.table, Item: { PK: pk, SK: 'QUOTA', used: 0, renews: 253_402_300_799 } }));
      return { authorization: `${pk} ${QUOTA}` };
    };
    // Warm both paths (connections, caches, JIT) on quotas of their own.
    const warm = await apiAndKey(ctx, orgId, { quota_max: -1 });
    await fire(`${viaStage.url}/${warm.apiId}/x`, { authorization: warm.key }, ctx.stage.pid);
    await fire(`${viaFloor.url}/x`, await floorItem(), ctx.floor.pid);
    // The stage's change feed reads the warm-up's writes from the stream (it polls every 250 ms):
    // done before the first round, so that round does not carry them.
    await new Promise((r) => setTimeout(r, 3000));

    const runs = await interleaved(
      ROUNDS,
      async () => {
        const { apiId, key } = await apiAndKey(ctx, orgId, { quota_max: QUOTA, quota_renewal_rate: 3600 });
        return fire(`${viaStage.url}/${apiId}/x`, { authorization: `Bearer ${key}` }, ctx.stage.pid);
      },
      async () => fire(`${viaFloor.url}/x`, await floorItem(), ctx.floor.pid),
    );
    const exact = (r: Run) => r.allowed === QUOTA && r.refused === ATTEMPTS - QUOTA;
    const tput = median(runs.a.map((r, i) => r.perSecond / runs.b[i]!.perSecond));
    const p50 = median(runs.a.map((r, i) => r.p50 / runs.b[i]!.p50));
    const each = (pick: (r: Run) => number | string, side: Run[]) => side.map(pick).join(' / ');
    const detail = {
      rounds: ROUNDS,
      stage_per_s: each((r) => round(r.perSecond, 0), runs.a),
      floor_per_s: each((r) => round(r.perSecond, 0), runs.b),
      stage_p50_ms: each((r) => r.p50, runs.a),
      floor_p50_ms: each((r) => r.p50, runs.b),
      stage_codes: each((r) => r.codes, runs.a),
      floor_codes: each((r) => r.codes, runs.b),
      stage_other: each((r) => r.other, runs.a),
      stage_reconnects: each((r) => r.reconnects, runs.a),
      floor_reconnects: each((r) => r.reconnects, runs.b),
      // CPU of the auth server's process per request (the stage's includes its change feed).
      stage_cpu_ms_per_request: each((r) => r.cpuMsPerRequest, runs.a),
      floor_cpu_ms_per_request: each((r) => r.cpuMsPerRequest, runs.b),
    };
    return [
      {
        scenario: 'nginx + ext-authz',
        measured: 'allowed of 1,500 through nginx, quota 1,000',
        value: Math.min(...runs.a.map((r) => r.allowed)),
        target: '= 1000 (rest 429) in every round',
        pass: runs.a.every(exact),
        detail,
      },
      {
        scenario: 'nginx + ext-authz',
        measured: 'throughput vs nginx + floor auth server (median of 5 rounds)',
        value: round(tput),
        target: '>= 0.8',
        pass: tput >= 0.8,
        detail,
      },
      {
        scenario: 'nginx + ext-authz',
        measured: 'p50 vs nginx + floor auth server (median of 5 rounds)',
        value: round(p50),
        target: '<= 1.2',
        pass: p50 <= 1.2,
        detail,
      },
    ];
  } finally {
    await viaStage.close();
    await viaFloor.close();
    await new Promise((r) => upstream.close(r));
  }
}
