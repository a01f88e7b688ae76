import { fileURLToPath } from 'node:url';
/**
 * The benchmark's own local stage: DynamoDB Local on disk in a fresh DATA_DIR, and `npm start`'s
 * entry point as a child process pointed at it, so the bench process can also talk to the same
 * DynamoDB Local directly for the raw baselines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort, startDynamoLocal, type DynamoLocal } from '../../infra/local/dynamodb-local';
import { randomHex } from '../../shared/domain/hashing';

export interface BenchStage {
  url: string;
  endpoint: string;
  table: string;
  gwSecret: string;
  adminSecret: string;
  dataDir: string;
  stop(): Promise<void>;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function startBenchStage(): Promise<BenchStage> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const dynamo: DynamoLocal = await startDynamoLocal(join(dataDir, 'dynamodb'));
  const port = await freePort();
  const table = 'gw-bench';
  const gwSecret = randomHex(24);
  const adminSecret = randomHex(24);
  // BENCH_PROFILE=<dir> writes a CPU profile of the stage (node --cpu-prof) for finding hot spots.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.BENCH_PROFILE)] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', join(ROOT, 'infra/local/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: table,
      GW_SECRET: gwSecret,
      ADMIN_SECRET: adminSecret,
      LOG_LEVEL: 'info',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the local stage exited while starting');
    try {
      const r = await fetch(`${url}/hello`);
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error('the local stage did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    endpoint: dynamo.endpoint,
    table,
    gwSecret,
    adminSecret,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await dynamo.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
