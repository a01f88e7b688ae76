/**
 * DynamoDB Local copies its SQLite native library on first use: the copy goes to
 * a folder the stage owns and removes, never to the system temp folder, where every SIGKILLed
 * JVM used to leave one. Node's and Java's system temp folder are pointed at an empty folder of
 * this test (TMPDIR, and -Djava.io.tmpdir through JAVA_TOOL_OPTIONS), which must stay empty.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoLocal, type DynamoLocal } from '../../infra/local/dynamodb-local';

const PID_MAX = '/proc/sys/kernel/pid_max';
const root = mkdtempSync(join(tmpdir(), 'gw-dynamodb-files-'));
const systemTemp = join(root, 'system-temp');
const saved = { TMPDIR: process.env.TMPDIR, JAVA_TOOL_OPTIONS: process.env.JAVA_TOOL_OPTIONS };

beforeAll(() => {
  mkdirSync(systemTemp);
  process.env.TMPDIR = systemTemp;
  process.env.JAVA_TOOL_OPTIONS = `-Djava.io.tmpdir=${systemTemp}`;
});

/** Every DynamoDB Local started here, stopped at the end even when an assertion failed first. */
const started: DynamoLocal[] = [];
const start = async (dbPath: string | null) => {
  const d = await startDynamoLocal(dbPath);
  started.push(d);
  return d;
};

afterAll(async () => {
  await Promise.all(started.map((d) => d.stop()));
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(root, { recursive: true, force: true });
});

/** A request that makes DynamoDB Local open its database, so it loads (and copies) the library. */
async function useDatabase(d: DynamoLocal): Promise<void> {
  const client = new DynamoDBClient({ endpoint: d.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await client.send(new ListTablesCommand({}));
  client.destroy();
}

const libraryCopies = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => /^sqlite-.*sqlite4java/.test(f)) : []);
const exited = (d: DynamoLocal) =>
  new Promise((r) => (d.process.exitCode !== null || d.process.signalCode !== null ? r(undefined) : d.process.once('exit', r)));

describe("DynamoDB Local's native library copy", () => {
  it('goes beside the data while it runs, and nothing stays after a stop', async () => {
    const dataDir = join(root, 'data');
    const d = await start(join(dataDir, 'dynamodb'));
    await useDatabase(d);
    expect(libraryCopies(join(dataDir, 'dynamodb-lib'))).toHaveLength(1);
    expect(readdirSync(systemTemp)).toEqual([]);
    await d.stop();
    expect(existsSync(join(dataDir, 'dynamodb-lib'))).toBe(false);
    expect(readdirSync(systemTemp)).toEqual([]);
  });

  it('is removed when the JVM is SIGKILLed, and a copy left by a crashed stage is removed by the next start', async () => {
    const dataDir = join(root, 'crashed');
    const d = await start(join(dataDir, 'dynamodb'));
    await useDatabase(d);
    d.process.kill('SIGKILL');
    await exited(d);
    expect(existsSync(join(dataDir, 'dynamodb-lib'))).toBe(false);

    // What a SIGKILL of the stage's own process (so no exit handler) leaves behind.
    mkdirSync(join(dataDir, 'dynamodb-lib'));
    writeFileSync(join(dataDir, 'dynamodb-lib', 'sqlite-392-left-by-a-crash-libsqlite4java.so'), '');
    const again = await start(join(dataDir, 'dynamodb'));
    await useDatabase(again);
    expect(libraryCopies(join(dataDir, 'dynamodb-lib'))).toHaveLength(1);
    expect(libraryCopies(join(dataDir, 'dynamodb-lib'))[0]).not.toContain('left-by-a-crash');
    await again.stop();
    expect(readdirSync(systemTemp)).toEqual([]);
  });

  it('goes to a temp folder of its own when the data is in memory, removed on stop, and one left by a dead process is removed', async () => {
    // A folder left by an in-memory start whose process was SIGKILLed: its pid is gone. Not the pid
    // of a child that just exited, which the kernel may hand out again (pid_max is 32768 on these
    // machines) before the start looks: it hands out pids below pid_max only.
    const gone = existsSync(PID_MAX) ? Number(readFileSync(PID_MAX, 'utf8')) : spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(join(systemTemp, `dynamodb-local-lib-${gone}-abc`));
    writeFileSync(join(systemTemp, `dynamodb-local-lib-${gone}-abc`, 'sqlite-392-left-libsqlite4java.so'), '');
    const d = await start(null);
    await useDatabase(d);
    const own = readdirSync(systemTemp);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(new RegExp(`^dynamodb-local-lib-${process.pid}-`));
    expect(libraryCopies(join(systemTemp, own[0]!))).toHaveLength(1);
    await d.stop();
    expect(readdirSync(systemTemp)).toEqual([]);
  });
});
