/**
 * The benchmark's own local stage: DynamoDB Local on disk in a fresh DATA_DIR, and `npm start`'s
 * entry point started by the suite's one launcher (test/support/stage.ts) pointed at it, so the
 * bench process can also talk to the same DynamoDB Local directly for the raw baselines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startDynamoLocal, type DynamoLocal } from '../../infra/local/dynamodb-local';
import { randomHex } from '../../shared/lib/hashing';
import { spawnStage } from '../../test/support/stage';

export interface BenchStage {
  url: string;
  endpoint: string;
  table: string;
  gwSecret: string;
  adminSecret: string;
  dataDir: string;
  /** The stage's node process (for its CPU time). */
  pid: number;
  /** DynamoDB Local's JVM (for its CPU time). */
  dynamoPid: number;
  stop(): Promise<void>;
}

/**
 * The benchmarks measure what a request costs, thousands of reads and writes a minute in one
 * organisation: its limits are set as high as they go, so every request still spends one (docs/reference/limits.md).
 */
export const UNLIMITED_ORGS = { ORG_READ_LIMIT: '1000000', ORG_WRITE_LIMIT: '1000000', ORG_HOOK_TEST_LIMIT: '1000000', ORG_PORTAL_LIMIT: '1000000' };

export async function startBenchStage(): Promise<BenchStage> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const dynamo: DynamoLocal = await startDynamoLocal(join(dataDir, 'dynamodb'));
  const table = 'gw-bench';
  const gwSecret = randomHex(24);
  const adminSecret = randomHex(24);
  // BENCH_PROFILE=<dir> writes a CPU profile of the stage (node --cpu-prof) for finding hot spots.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.BENCH_PROFILE)] : [];
  const stage = await spawnStage({
    dataDir,
    nodeArgs: profile,
    output: 'stderr',
    env: {
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: table,
      GW_SECRET: gwSecret,
      ADMIN_SECRET: adminSecret,
      LOG_LEVEL: 'info',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...UNLIMITED_ORGS,
    },
  });
  return {
    url: stage.url,
    endpoint: dynamo.endpoint,
    table,
    gwSecret,
    adminSecret,
    dataDir,
    pid: stage.proc.pid!,
    dynamoPid: dynamo.process.pid!,
    async stop() {
      await stage.stop();
      await dynamo.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
