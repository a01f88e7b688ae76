/**
 * One key checked faster than one DynamoDB item takes writes. DynamoDB Local has no per-item
 * ceiling, so the spends go through test/support/throttling-dynamo.ts, which refuses more than C
 * writes/s per item (BENCH_HOT_C, default 50: the real ~1,000/s scaled down to this machine).
 * The service's own store code (shared/store/live-quota/, as the check calls it) spends a key
 * with quota 4 × C × 6 from 64 concurrent workers until 300 checks past the quota are refused:
 * the counter shards itself when throttled. Judged: allowed checks/s / C (target >= 4) and
 * allowed - quota_max (target 0: no over-admission).
 */
import { resetConfig } from '../../shared/config';
import { resetClient } from '../../shared/store/db/client';
import { counterOf } from '../../shared/store/keys';
import { spend } from '../../shared/store/live-quota/spend';
import { startThrottlingDynamo } from '../../test/support/throttling-dynamo';
import type { Ctx } from '../lib/context';
import { round, type Row } from '../lib/stats';

const WORKERS = 64;

export async function hotKey(ctx: Ctx): Promise<Row[]> {
  const C = Number(process.env.BENCH_HOT_C ?? 50);
  const quota = 4 * C * 6;
  const throttle = await startThrottlingDynamo(ctx.stage.endpoint, C);
  process.env.DYNAMODB_ENDPOINT = throttle.url;
  resetConfig();
  resetClient();
  try {
    const ref = counterOf(`bench-hot-${Date.now().toString(36)}`, '');
    const limits = { max: quota, renewalRate: 3600, rate: null };
    let allowed = 0;
    let refused = 0;
    let errors = 0;
    let lastAllowed = 0;
    const t0 = performance.now();
    const worker = async () => {
      while (refused < 300) {
        try {
          const r = await spend(ref, limits, Math.floor(Date.now() / 1000));
          if (r.ok) {
            allowed++;
            lastAllowed = performance.now();
          } else refused++;
        } catch {
          errors++;
          if (errors > 10_000) throw new Error('hot key: the spends keep failing');
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    const seconds = (lastAllowed - t0) / 1000;
    const perSecond = allowed / seconds;
    const detail = {
      C,
      quota_max: quota,
      allowed,
      refused_after: refused,
      errors_503: errors,
      seconds: round(seconds),
      allowed_per_s: round(perSecond, 0),
      writes_passed: throttle.stats.writes,
      writes_throttled: throttle.stats.throttled,
    };
    return [
      {
        scenario: 'hot key',
        measured: `allowed checks/s of one key / per-item write ceiling C=${C}`,
        value: round(perSecond / C),
        target: '>= 4',
        pass: perSecond / C >= 4,
        detail,
      },
      { scenario: 'hot key', measured: 'allowed - quota_max (over-admission)', value: allowed - quota, target: '= 0', pass: allowed === quota, detail },
    ];
  } finally {
    process.env.DYNAMODB_ENDPOINT = ctx.stage.endpoint;
    resetConfig();
    resetClient();
    await throttle.close();
  }
}
