/**
 * Real nginx in front of an API (README "Put an API behind it"): the same example config
 * (examples/nginx/api-gateway.conf) authorising through the stage's /gw/ext-authz, and through
 * the floor auth server (bench/floor.ts: one raw conditional UpdateItem per request), 50
 * concurrent clients, 1,500 requests on a quota of 1,000 that runs out mid-run.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Agent, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startNginx } from '../../test/support/nginx';
import { apiAndKey, type Ctx } from '../lib/context';
import { percentile, round, type Row } from '../lib/stats';

const CONNECTIONS = 50;
const ATTEMPTS = 1500;
const QUOTA = 1000;

type Run = { perSecond: number; p50: number; allowed: number; refused: number; other: number; codes: string; reconnects: number };

/**
 * CONNECTIONS clients, each sending its next request when its answer arrives, until ATTEMPTS
 * were answered. Not autocannon: nginx closes the client's connection after every refusal it
 * maps from the auth subrequest (README "Put an API behind it"), and autocannon's fixed amount
 * then loses the requests pipelined on it (237 of 1,500 went unanswered and uncounted).
 */
async function fire(url: string, headers: Record<string, string>): Promise<Run> {
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
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent < ATTEMPTS) {
        sent++;
        await one();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
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
      return { 'x-floor-pk': pk, 'x-floor-max': String(QUOTA) };
    };
    // Warm both paths (connections, caches, JIT) on quotas of their own.
    const warm = await apiAndKey(ctx, orgId, { quota_max: -1 });
    await fire(`${viaStage.url}/${warm.apiId}/x`, { authorization: warm.key });
    await fire(`${viaFloor.url}/x`, await floorItem());

    const { apiId, key } = await apiAndKey(ctx, orgId, { quota_max: QUOTA, quota_renewal_rate: 3600 });
    const stage = await fire(`${viaStage.url}/${apiId}/x`, { authorization: `Bearer ${key}` });
    const floor = await fire(`${viaFloor.url}/x`, await floorItem());
    const tput = stage.perSecond / floor.perSecond;
    const p50 = stage.p50 / floor.p50;
    const detail = {
      stage_per_s: round(stage.perSecond, 0),
      floor_per_s: round(floor.perSecond, 0),
      stage_p50_ms: stage.p50,
      floor_p50_ms: floor.p50,
      stage_allowed: stage.allowed,
      stage_429: stage.refused,
      stage_other: stage.other,
      floor_allowed: floor.allowed,
      floor_429: floor.refused,
      stage_codes: stage.codes,
      floor_codes: floor.codes,
      stage_reconnects: stage.reconnects,
      floor_reconnects: floor.reconnects,
    };
    return [
      {
        scenario: 'nginx + ext-authz',
        measured: 'allowed of 1,500 through nginx, quota 1,000',
        value: stage.allowed,
        target: '= 1000 (rest 429)',
        pass: stage.allowed === QUOTA && stage.refused === ATTEMPTS - QUOTA,
        detail,
      },
      { scenario: 'nginx + ext-authz', measured: 'throughput vs nginx + floor auth server', value: round(tput), target: '>= 0.8', pass: tput >= 0.8, detail },
      { scenario: 'nginx + ext-authz', measured: 'p50 vs nginx + floor auth server', value: round(p50), target: '<= 1.2', pass: p50 <= 1.2, detail },
    ];
  } finally {
    await viaStage.close();
    await viaFloor.close();
    await new Promise((r) => upstream.close(r));
  }
}
