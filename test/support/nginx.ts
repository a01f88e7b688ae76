/**
 * Real nginx for the gateway tests and benchmarks: Debian's /usr/sbin/nginx (nginx-light has
 * auth_request) running examples/nginx/api-gateway.conf as users copy it, only its ${...} values
 * filled in, inside a minimal nginx.conf of a temporary prefix.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../infra/local/dynamodb-local';

export const NGINX = '/usr/sbin/nginx';
const NGINX_EXAMPLE = resolve('examples/nginx/api-gateway.conf');
const INSTALL = 'apt-get install -y nginx-light';

/**
 * nginx, installed when missing and this process may (root); otherwise an error naming the
 * command, so a machine without it fails the gateway tests instead of skipping them.
 */
export function ensureNginx(): void {
  if (existsSync(NGINX)) return;
  if (process.getuid?.() !== 0) throw new Error(`${NGINX} is missing: run \`sudo ${INSTALL}\` (Debian's nginx-light has auth_request)`);
  execFileSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${INSTALL} -qq`], { stdio: 'inherit' });
  if (!existsSync(NGINX)) throw new Error(`\`${INSTALL}\` did not install ${NGINX}`);
}

export interface Nginx {
  url: string;
  /** The error log so far (what nginx said about a refusal or a failed start). */
  errors(): string;
  close(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((r) => {
    const s = connect(port, '127.0.0.1', () => {
      s.end();
      r(true);
    });
    s.on('error', () => r(false));
  });
}

type ExampleValues = { GW_CONTROL: string; GW_SECRET: string; API_UPSTREAM: string; LISTEN: string; SERVER_NAMES: string };

/** The example config with its values filled in, as `envsubst` would. */
function filledExample(values: ExampleValues): string {
  return readFileSync(NGINX_EXAMPLE, 'utf8').replace(
    /\$\{(GW_CONTROL|GW_SECRET|API_UPSTREAM|LISTEN|SERVER_NAMES)\}/g,
    (_, k: keyof ExampleValues) => values[k],
  );
}

/** The host names the tests' nginx serves (its server_name): what a client on this machine sends as Host. */
export const SERVED_HOSTS = '127.0.0.1 localhost';

/** nginx on a free port of 127.0.0.1 in front of `upstream`, authorising through the stage at `control`. */
export async function startNginx(o: { control: string; secret: string; upstream: string; workers?: number; serverNames?: string }): Promise<Nginx> {
  const host = (u: string) => new URL(u).host;
  return startNginxWith(
    (listen) =>
      filledExample({
        GW_CONTROL: host(o.control),
        GW_SECRET: o.secret,
        API_UPSTREAM: host(o.upstream),
        LISTEN: listen,
        SERVER_NAMES: o.serverNames ?? SERVED_HOSTS,
      }),
    o.workers,
  );
}

/** nginx whose http block includes a file of its own, to be rewritten and reloaded (gwctl gateway nginx). */
export interface FollowingNginx extends Nginx {
  /** The file the http block includes, the main configuration, nginx's prefix, and where it listens. */
  include: string;
  conf: string;
  prefix: string;
  listen: string;
}

/**
 * nginx on a free port of 127.0.0.1 whose http block includes `api-gateway.conf`, first written by
 * `firstInclude(listen)` (for gwctl gateway nginx: a lone default server until it renders).
 */
export async function startNginxWith(firstInclude: (listen: string) => string, workers?: number): Promise<FollowingNginx> {
  ensureNginx();
  const dir = mkdtempSync(join(tmpdir(), 'gw-nginx-'));
  chmodSync(dir, 0o777);
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d), { mode: 0o777 });
  const port = await freePort();
  const listen = `127.0.0.1:${port}`;
  const o = { workers };
  writeFileSync(join(dir, 'api-gateway.conf'), firstInclude(listen));
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      `worker_processes ${o.workers ?? 1};`,
      'daemon off;',
      'master_process on;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((d) => `  ${d === 'body' ? 'client_body' : d}_temp_path ${dir}/${d};`),
      `  include ${dir}/api-gateway.conf;`,
      '}',
    ].join('\n'),
  );
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const errors = () => stderr + (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const until = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${errors()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    include: join(dir, 'api-gateway.conf'),
    conf: join(dir, 'nginx.conf'),
    prefix: dir,
    listen,
    errors,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What `gwctl gateway nginx --watch` last wrote to its --status-file. */
interface FollowerStatus {
  version: number | null;
  changed_at: string | null;
  applied_version: number | null;
  skipped: Array<{ apiId: string; reason: string }>;
  failures: number;
}

export interface Follower {
  status(): FollowerStatus | undefined;
  /** Waits until the follower has seen the routing version the stage has now (a deadline, not a fixed wait). */
  followed(): Promise<FollowerStatus>;
  log(): string;
  stop(): void;
}

/**
 * `gwctl gateway nginx --watch` for `nginx`, following the stage at `stageUrl` every 0.2 s (or `interval`),
 * serving the host names 127.0.0.1 and localhost, reporting as `gatewayId`.
 */
export async function startFollower(
  nginx: FollowingNginx,
  stage: { url: string; gw: (method: string, path: string) => Promise<{ body: unknown }> },
  o: { gatewaySecret: string; gatewayId?: string; interval?: number },
): Promise<Follower> {
  const statusFile = join(nginx.prefix, 'gwctl-status.json');
  let log = '';
  const child = spawn(
    process.execPath,
    [
      'tools/gwctl/bin.mjs',
      ...['gateway', 'nginx', '--watch', '--interval', String(o.interval ?? 0.2), '--out', nginx.include, '--listen', nginx.listen],
      ...['--server-name', '127.0.0.1', '--server-name', 'localhost'],
      ...['--nginx-conf', nginx.conf, '--nginx-prefix', nginx.prefix, '--status-file', statusFile],
      ...(o.gatewayId ? ['--gateway-id', o.gatewayId] : []),
    ],
    { env: { ...process.env, GW_URL: stage.url, GW_GATEWAY_SECRET: o.gatewaySecret }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (c: Buffer) => (log += c.toString()));
  const status = (): FollowerStatus | undefined => {
    try {
      return JSON.parse(readFileSync(statusFile, 'utf8')) as FollowerStatus;
    } catch {
      return undefined;
    }
  };
  const follower: Follower = {
    status,
    log: () => log,
    stop: () => child.kill('SIGTERM'),
    async followed() {
      const { version } = (await stage.gw('GET', '/gw/routing/version')).body as { version: number };
      const deadline = Date.now() + 20_000;
      for (;;) {
        const st = status();
        if (st && st.version !== null && st.version >= version) return st;
        if (Date.now() > deadline) throw new Error(`gwctl did not follow version ${version}: ${JSON.stringify(st)}\n${log}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  await follower.followed();
  return follower;
}

/**
 * The status nginx at `base` answers for `path`, on a connection of its own (a kept-alive one may
 * reach a worker of the configuration before the last reload); 0 when it cannot be reached.
 */
export function statusVia(base: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((done) => {
    httpGet(`${base}${path}`, { headers: { connection: 'close', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    }).on('error', () => done(0));
  });
}
