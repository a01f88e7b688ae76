/**
 * `npm run emulate` as a child process for the tests: the synthesized template served on a free
 * port with the test credentials, over a fresh table of the run's DynamoDB Local (created by the
 * emulator from the template). Its output is kept line by line: REPORT, INIT_REPORT, ERROR and
 * DENIED lines are what the tests read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { ROOT } from '../../infra/local/emulator/synth';
import { stageAt, type Stage } from './stage';
import { ADMIN_SECRET, GW_SECRET } from './table';

export interface EmulatedStage extends Stage {
  /** Every line the emulator printed so far. */
  log: string[];
  child: ChildProcess;
}

export async function startEmulatedStage(template: string, env: Record<string, string> = {}): Promise<EmulatedStage> {
  const table = `e-${randomUUID()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-emulate-'));
  const port = await freePort();
  const child = spawn('npm', ['run', '--silent', 'emulate', '--', '--template', template], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      TABLE_NAME: table,
      GW_SECRET,
      ADMIN_SECRET,
      ...env,
    },
  });
  const log: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) createInterface({ input: s }).on('line', (l) => log.push(l));
  const deadline = Date.now() + 90_000;
  while (!log.some((l) => l.startsWith('Emulated cloud stage listening on'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`npm run emulate did not start:\n${log.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return Object.assign(stageAt(`http://127.0.0.1:${port}`, table, close), { log, child });
}

/** The emulator's lines of one kind (REPORT, INIT_REPORT, ERROR, DENIED). */
export const linesOf = (s: EmulatedStage, kind: string) => s.log.filter((l) => l.startsWith(`${kind} `));
