/** Starts the floor server (bench/floor.ts) as a process of its own on the stage's DynamoDB Local. */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchStage } from './stage';

export interface Floor {
  url: string;
  /** Its node process (for its CPU time). */
  pid: number;
  stop(): void;
}

export async function startFloor(stage: BenchStage): Promise<Floor> {
  const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'floor.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, DYNAMODB_ENDPOINT: stage.endpoint, TABLE_NAME: stage.table, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill() };
}
