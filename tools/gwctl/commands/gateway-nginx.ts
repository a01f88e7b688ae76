/**
 * gwctl gateway nginx (docs/using/serving-apis.md): the routing table as an nginx configuration,
 * written once, or followed with --watch. A change is rendered, checked with `nginx -t` against a
 * copy of the main configuration that includes the new file instead of the live one, swapped in
 * and nginx reloaded; only when the rendered text changed. A render or a check that fails leaves
 * nginx serving the last good configuration, and is counted in the status (--status-file).
 */
import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { get as httpGet } from 'node:http';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import { GwctlError, must, stageUrlFrom } from '../client';
import type { paths } from '../generated/api';
import { renderNginx, VERSION_PROBE, type RoutingTable } from '../gateway/nginx-config';

/** The most left-out APIs one report carries (the service's limit, shared/schemas/gateway-status.ts). */
const SKIPPED_REPORTED = 500;
import type { Io } from './io';

const run = promisify(execFile);

export interface GatewayNginxOptions {
  /** The file nginx includes from its http block (written atomically). */
  out: string;
  listen: string;
  serverNames: string[];
  watch: boolean;
  /** Seconds between two polls of the routing version. */
  interval: number;
  nginx: string;
  /** The main nginx.conf, which includes `out`: what `nginx -t` checks and `nginx -s reload` reloads. */
  nginxConf?: string;
  /** nginx's prefix (-p), when it is not its default. */
  nginxPrefix?: string;
  statusFile?: string;
  /** The name this gateway reports under (PUT /gw/gateways/{gatewayID}), so dashboard users see where their APIs are live. */
  gatewayId?: string;
  /** Stop after this many polls (tests); none: follow for ever. */
  polls?: number;
}

/** What the follower has done, as --status-file holds it. */
interface Status {
  /** The routing version nginx serves (applied, or rendered to the text it already ran). */
  version: number | null;
  /** When the routing version of the table it serves last moved. */
  changed_at: string | null;
  applied_version: number | null;
  applied_at: string | null;
  routes: number;
  skipped: Array<{ apiId: string; reason: string }>;
  failures: number;
  last_error: string | null;
}

/** Seconds after which an unchanged report is sent again, so the service can tell a gateway that stopped. */
const REPORT_SECONDS = 60;

/** Seconds after which the whole table is read again whatever the version says (the table's indexes settle within moments). */
const FULL_READ_SECONDS = 60;

function gatewayCredentials(env: NodeJS.ProcessEnv) {
  const url = stageUrlFrom(env);
  const secret = env.GW_GATEWAY_SECRET;
  if (!secret) throw new GwctlError("GW_GATEWAY_SECRET is not set: the installation's gateway credential (X-Gw-Authorization)");
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new GwctlError('GW_URL must be http or https');
  return { url, secret, control: { scheme: u.protocol === 'https:' ? ('https' as const) : ('http' as const), hostPort: u.host } };
}

/** Routes whose upstream host does not resolve here would make `nginx -t` (and every reload) fail for all: left out, reported. */
async function unresolved(table: RoutingTable): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const hosts = new Set(table.hosts.flatMap((h) => h.routes.flatMap((r) => r.upstreams.map((u) => u.host))));
  const failed = new Set<string>();
  await Promise.all(
    [...hosts].map(async (h) => {
      if (/^[\d.]+$/.test(h) || h.startsWith('[')) return;
      await lookup(h).catch(() => failed.add(h));
    }),
  );
  for (const h of table.hosts)
    for (const r of h.routes) {
      const bad = r.upstreams.find((u) => failed.has(u.host));
      if (bad) out.set(r.apiId, `its upstream host ${bad.host} does not resolve from this gateway`);
    }
  return out;
}

function withoutRoutes(table: RoutingTable, leave: Map<string, string>): RoutingTable {
  return { ...table, hosts: table.hosts.map((h) => ({ ...h, routes: h.routes.filter((r) => !leave.has(r.apiId)) })) };
}

/**
 * The `include` directive of the main configuration that names `out`, as written: absolute, or
 * relative to the main configuration's folder as nginx reads it (`include routes.conf;`).
 */
function includeOf(main: string, mainFile: string, out: string): string | undefined {
  return [...main.matchAll(/^\s*include\s+([^;\s]+)\s*;/gm)].find((m) => resolve(dirname(resolve(mainFile)), m[1]!) === resolve(out))?.[0].trim();
}

/** `nginx -t` on a copy of the main configuration that includes `candidate` instead of `out`. */
async function check(o: GatewayNginxOptions, candidate: string): Promise<void> {
  if (!o.nginxConf) return;
  // Beside the main configuration, so that its other relative includes (mime.types...) resolve as nginx reads them.
  const copy = join(dirname(resolve(o.nginxConf)), `.${basename(o.nginxConf)}.gwctl-check`);
  try {
    const main = readFileSync(o.nginxConf, 'utf8');
    const live = includeOf(main, o.nginxConf, o.out);
    if (!live) throw new GwctlError(`${o.nginxConf} does not include ${o.out}`);
    writeFileSync(copy, main.split(live).join(`include ${candidate};`));
    await run(o.nginx, ['-t', '-q', '-c', copy, ...(o.nginxPrefix ? ['-p', o.nginxPrefix] : [])]);
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new GwctlError(`nginx -t refused the rendered configuration: ${(err.stderr || err.message).trim()}`);
  } finally {
    rmSync(copy, { force: true });
  }
}

/**
 * Reloads nginx and waits until it serves the new file and no worker of the old one accepts a
 * request: `nginx -s reload` only signals the master, which starts new workers and then tells the
 * old ones to stop accepting; until they have, a new connection may still meet the old routes.
 */
async function reload(o: GatewayNginxOptions, version: number): Promise<void> {
  if (!o.nginxConf) return;
  const master = masterPid(o);
  const before = master === undefined ? [] : acceptingWorkers(master);
  await run(o.nginx, ['-s', 'reload', '-c', o.nginxConf, ...(o.nginxPrefix ? ['-p', o.nginxPrefix] : [])]);
  const address = o.listen.includes(':') ? o.listen : `127.0.0.1:${o.listen}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const oldStillAccept = master !== undefined && acceptingWorkers(master).some((pid) => before.includes(pid));
    if (!oldStillAccept && (await probe(address)) === String(version)) return;
    if (Date.now() > deadline) throw new GwctlError(`nginx did not run routing version ${version} within 10 s of its reload`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The master's pid, from the `pid` file its configuration names (or nginx's default under the prefix). */
function masterPid(o: GatewayNginxOptions): number | undefined {
  const conf = readIfExists(o.nginxConf!) ?? '';
  const named = /^\s*pid\s+([^;\s]+)\s*;/m.exec(conf)?.[1];
  const file = named ? resolve(o.nginxPrefix ?? '/', named) : join(o.nginxPrefix ?? '/usr/share/nginx', 'logs/nginx.pid');
  const pid = Number((readIfExists(file) ?? '').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * The master's workers that still accept connections (Linux: /proc; elsewhere none is known, and
 * the version probe alone decides). A worker told to stop is titled "worker process is shutting down".
 */
function acceptingWorkers(master: number): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.flatMap((pid) => {
    const stat = readIfExists(`/proc/${pid}/stat`);
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : undefined;
    if (ppid !== master) return [];
    const title = (readIfExists(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ');
    return title.includes('worker process') && !title.includes('shutting down') ? [Number(pid)] : [];
  });
}

export async function gatewayNginx(o: GatewayNginxOptions, io: Io): Promise<number> {
  const creds = gatewayCredentials(io.env);
  const client = createClient<paths>({ baseUrl: creds.url, headers: { 'x-gw-authorization': creds.secret } });
  const status: Status = { version: null, changed_at: null, applied_version: null, applied_at: null, routes: 0, skipped: [], failures: 0, last_error: null };
  const writeStatus = () => o.statusFile && writeFileSync(o.statusFile, `${JSON.stringify(status, null, 2)}\n`);
  let rendered = readIfExists(o.out);
  let lastFull = 0;
  let reported = { text: '', at: 0 };
  /** Tells the service what nginx serves, when that changed or once a minute; a failed report is logged and sent again. */
  const report = async () => {
    if (!o.gatewayId || status.version === null) return;
    const body = {
      kind: 'nginx' as const,
      version: status.version,
      changed_at: status.changed_at,
      applied_at: status.applied_at,
      failures: status.failures,
      last_error: status.last_error?.slice(0, 2000) ?? null,
      skipped: status.skipped.slice(0, SKIPPED_REPORTED).map((s) => ({ api_id: s.apiId, reason: s.reason.slice(0, 500) })),
    };
    const text = JSON.stringify(body);
    if (text === reported.text && Date.now() - reported.at < REPORT_SECONDS * 1000) return;
    const answer = await client
      .PUT('/gw/gateways/{gatewayID}', { params: { path: { gatewayID: o.gatewayId } }, body })
      .catch((e: Error) => ({ error: e.message }));
    if ('error' in answer && answer.error !== undefined) io.err(`gwctl gateway nginx: the report to the service failed: ${JSON.stringify(answer.error)}`);
    else reported = { text, at: Date.now() };
  };
  for (let poll = 1; ; poll++) {
    try {
      const { version } = must('routing version', await client.GET('/gw/routing/version'));
      const due = Date.now() - lastFull > FULL_READ_SECONDS * 1000;
      if (version !== status.version || due) {
        const table = must('routing table', await client.GET('/gw/routing'));
        lastFull = Date.now();
        const leave = await unresolved(table);
        const { text, skipped } = renderNginx(withoutRoutes(table, leave), {
          listen: o.listen,
          sharedNames: o.serverNames,
          control: creds.control,
          gatewaySecret: creds.secret,
        });
        status.skipped = [...table.skipped, ...[...leave].map(([apiId, reason]) => ({ apiId, reason })), ...skipped];
        status.routes = table.hosts.reduce((n, h) => n + h.routes.length, 0) - leave.size - skipped.length;
        if (text !== rendered) {
          const candidate = resolve(`${o.out}.candidate`);
          writeFileSync(candidate, text, { mode: 0o600 });
          await check(o, candidate);
          renameSync(candidate, o.out);
          await reload(o, table.version);
          rendered = text;
          status.applied_version = table.version;
          status.applied_at = new Date().toISOString();
          io.out(`applied routing version ${table.version}: ${status.routes} routes, ${status.skipped.length} left out`);
          for (const s of status.skipped) io.out(`  left out ${s.apiId}: ${s.reason}`);
        }
        // Followed: nginx runs this version's routes (or already ran the same text). Its changed_at
        // lets the service count an API changed before it as applied while this gateway is behind.
        status.version = table.version;
        status.changed_at = table.changed_at;
        status.last_error = null;
      }
    } catch (e) {
      status.failures++;
      status.last_error = e instanceof Error ? e.message : String(e);
      io.err(`gwctl gateway nginx: ${status.last_error}; nginx keeps the last good configuration`);
      if (!o.watch) {
        writeStatus();
        await report();
        return 1;
      }
    }
    writeStatus();
    await report();
    if (!o.watch || (o.polls !== undefined && poll >= o.polls)) return status.failures > 0 ? 1 : 0;
    await new Promise((r) => setTimeout(r, o.interval * 1000));
  }
}

/**
 * What nginx's default server answers at VERSION_PROBE, on a connection of its own: a kept-alive
 * one could still reach an old worker, which answers the old version until it exits.
 */
function probe(address: string): Promise<string> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  return new Promise((done) => {
    const req = httpGet({ host, port, path: VERSION_PROBE, agent: false, headers: { host: 'gwctl.invalid', connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done(text));
    });
    req.on('error', () => done(''));
  });
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
