/**
 * npm run durability (docs/operating/local-stage.md): crash the local stage and check that every
 * write it acknowledged is still there after a restart on the same DATA_DIR. Two cases:
 * - mid-load: concurrent writers send acknowledged writes, after a random 1-3 s the server and
 *   its DynamoDB Local (Java) are both killed with SIGKILL;
 * - burst: BURST_SIZE transactional creates sent at once, and both processes SIGKILLed in the
 *   same turn of the event loop as the last answer arrives, so no later request can reach
 *   DynamoDB Local (the case that showed it answering a transaction before committing it).
 *
 * One DATA_DIR serves all trials, so a later trial also re-checks the writes of the earlier ones:
 * they must survive every crash, not only the first. After each crash the stage is started again
 * (spawn -> GET /hello pass is the restart time) and every acknowledged write is read back
 * through the API. Exits 1 when any is lost. `DURABILITY_MIDLOAD_TRIALS` (3) and
 * `DURABILITY_BURST_TRIALS` (20; the test suite runs 5) set the trials; `LOCAL_COMMIT_WAIT=off`
 * runs the stage without its commit wait, to see the loss (docs/operating/local-stage.md).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from '../test/support/client';
import { spawnStage, type SpawnedStage } from '../test/support/stage';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TRIALS = Number(process.env.DURABILITY_MIDLOAD_TRIALS || 3);
const WRITERS = 8;
const BURST_TRIALS = Number(process.env.DURABILITY_BURST_TRIALS || 20);
const BURST_SIZE = 20;
const VERIFY_CONCURRENCY = 16;
// A trial takes 5-10 s (most of it the restart); far more means something hangs.
const WATCHDOG_MS = 60_000 + (TRIALS + BURST_TRIALS) * 25_000;
const READY_TIMEOUT_MS = 45_000;

// --- the stage as a child process (the suite's one launcher, test/support/stage.ts) ------------

type Stage = SpawnedStage;

async function startStage(dataDir: string): Promise<Stage> {
  // The secrets must come from DATA_DIR and storage from the stage's own DynamoDB Local.
  const none = { GW_SECRET: undefined, ADMIN_SECRET: undefined, SERVER_SECRET: undefined, DYNAMODB_ENDPOINT: undefined, TABLE_NAME: undefined };
  const stage = await spawnStage({ dataDir, env: none, readyTimeoutMs: READY_TIMEOUT_MS });
  live.add(stage.proc);
  stage.proc.once('exit', () => live.delete(stage.proc));
  return stage;
}

/** All descendants of a pid (`ps --ppid`, walked down): the tsx loader, node and the Java child. */
function descendants(pid: number): number[] {
  const r = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  const kids = r.stdout
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/** Gone, or a zombie nobody has reaped yet (it holds no files and serves nothing). */
function dead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

interface Pids {
  server: number;
  dynamodb: number;
}

/** The server's pid and its DynamoDB Local's (`ps` takes a while: the burst finds them first). */
function stagePids(stage: Stage, dataDir: string): Pids {
  const server = stage.proc.pid!;
  const java = descendants(server).filter((p) => /DynamoDBLocal\.jar/.test(cmdline(p)) && cmdline(p).includes(dataDir));
  if (java.length !== 1) throw new Error(`expected one DynamoDB Local under pid ${server}, found ${java.length}`);
  return { server, dynamodb: java[0]! };
}

/** SIGKILL both in the same instant (before the first await); resolves when both are gone. */
async function kill({ server, dynamodb }: Pids): Promise<void> {
  process.kill(dynamodb, 'SIGKILL');
  process.kill(server, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (!dead(server) || !dead(dynamodb)) {
    if (Date.now() > deadline) throw new Error(`pids ${server}/${dynamodb} still alive 10 s after SIGKILL`);
    await sleep(10);
  }
}

/** SIGKILL the server and its DynamoDB Local in the same instant; answers their pids. */
async function crash(stage: Stage, dataDir: string): Promise<Pids> {
  const pids = stagePids(stage, dataDir);
  await kill(pids);
  return pids;
}

/** Clean stop at the end: SIGTERM to the group, SIGKILL after 10 s. */
const stopStage = (stage: Stage) => stage.stop();

const live = new Set<ChildProcess>();
function killAll() {
  for (const p of live) {
    try {
      process.kill(-p.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

// --- HTTP ---------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: any;
}

/** Acknowledged means the whole answer arrived, not only the status line (the client resolves at its end). */
async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const { status, body: parsed } = await request(url, method, path, { headers, body, timeoutMs: 15_000 });
  return { status, body: parsed };
}

// --- what was acknowledged ----------------------------------------------------------------------

interface Org {
  kind: 'org';
  id: string;
  writes: 1;
}
interface User {
  kind: 'user';
  orgId: string;
  email: string;
  firstName: string;
  key: string;
  writes: 1;
}
interface Api {
  kind: 'api';
  id: string;
  orgId: string;
  name: string;
  listenPath: string;
  target: string;
  writes: 1;
}
/** Versions are sequential per policy (one writer owns it); `pending` is a PUT in flight at the crash. */
interface Policy {
  kind: 'policy';
  id: string;
  orgId: string;
  acked: number;
  pending?: number;
  writes: number;
}
/** A webhook, read back with the dashboard key of its organisation's user. */
interface Hook {
  kind: 'hook';
  id: string;
  key: string;
  name: string;
  target: string;
  writes: 1;
}
type Acked = Org | User | Api | Policy | Hook;

const policyBody = (p: { id: string; orgId: string }, v: number) => ({
  id: p.id,
  name: `${p.id} v${v}`,
  org_id: p.orgId,
  rate: v,
  per: 1,
  quota_max: 1000 + v,
  tags: [`v${v}`],
});

interface Load {
  acked: Acked[];
  writes: number;
  /** Non-2xx answers before the crash: these should not happen at all. */
  rejected: Array<{ path: string; status: number; body: unknown }>;
  /** Writes sent and not yet answered: those the crash cut off. */
  inFlight: number;
}

/** Writers loop until `stop` is set; every write that answers 2xx is recorded with its content. */
async function driveLoad(url: string, secrets: Secrets, run: string, stop: { now: boolean }, load: Load, baseOrg: string): Promise<void> {
  const admin = { 'admin-auth': secrets.adminSecret };
  const gw = { 'x-gw-authorization': secrets.gwSecret };
  let seq = 0;
  const uid = (p: string) => `${p}-${run}-${(++seq).toString(36)}`;

  const write = async (method: string, path: string, headers: Record<string, string>, body: unknown): Promise<Answer | undefined> => {
    if (stop.now) return undefined;
    let r: Answer;
    load.inFlight++;
    try {
      r = await call(url, method, path, headers, body);
    } catch {
      return undefined; // no answer (the crash): not acknowledged
    } finally {
      load.inFlight--;
    }
    if (r.status >= 200 && r.status < 300) {
      load.writes++;
      return r;
    }
    if (!stop.now) load.rejected.push({ path: `${method} ${path}`, status: r.status, body: r.body });
    return undefined;
  };

  const newTenant = async (): Promise<string | undefined> => {
    const id = uid('org');
    if (!(await write('POST', '/admin/organisations', admin, { id, owner_name: `Owner ${id}` }))) return undefined;
    load.acked.push({ kind: 'org', id, writes: 1 });
    const email = `${id}@durability.example`;
    const firstName = `First ${id}`;
    const u = await write('POST', '/admin/users', admin, { org_id: id, email_address: email, first_name: firstName });
    if (u) load.acked.push({ kind: 'user', orgId: id, email, firstName, key: String(u.body.Meta.access_key), writes: 1 });
    return id;
  };

  const writer = async () => {
    // Starts on the run's base organisation: a first user create is slow (it hashes a key).
    const orgs: string[] = [baseOrg];
    const policies: Policy[] = [];
    while (!stop.now) {
      const orgId = orgs[Math.floor(Math.random() * orgs.length)]!;
      const dice = Math.random();
      if (dice < 0.2) {
        const id = await newTenant();
        if (id) orgs.push(id);
      } else if (dice < 0.45) {
        const id = uid('api');
        const api: Api = { kind: 'api', id, orgId, name: `API ${id}`, listenPath: `/${id}/`, target: `http://upstream.example/${id}`, writes: 1 };
        const body = { api_id: id, name: api.name, org_id: orgId, proxy: { listen_path: api.listenPath, target_url: api.target } };
        if (await write('POST', '/gw/apis', gw, body)) load.acked.push(api);
      } else if (dice < 0.65 || policies.length === 0) {
        const p: Policy = { kind: 'policy', id: uid('pol'), orgId, acked: 0, writes: 0 };
        p.pending = 1;
        if (await write('POST', '/gw/policies', gw, policyBody(p, 1))) {
          p.acked = 1;
          p.pending = undefined;
          p.writes = 1;
          policies.push(p);
          load.acked.push(p);
        }
      } else {
        // Full replacement without If-Match: this writer is the policy's only writer.
        const p = policies[Math.floor(Math.random() * policies.length)]!;
        const v = p.acked + 1;
        p.pending = v;
        if (await write('PUT', `/gw/policies/${p.id}`, gw, policyBody(p, v))) {
          p.acked = v;
          p.writes++;
          p.pending = undefined;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

/**
 * Loads the write handlers before the clock starts (the local server imports each on its first
 * request), so the 1-3 s of load go to writes. Invalid bodies: these answer 400 and store nothing.
 */
async function warmUp(url: string, secrets: Secrets): Promise<void> {
  const admin = { 'admin-auth': secrets.adminSecret };
  const gw = { 'x-gw-authorization': secrets.gwSecret };
  await Promise.all([
    call(url, 'POST', '/admin/organisations', admin, { id: 'bad#id' }),
    call(url, 'POST', '/admin/users', admin, { org_id: 'bad#id' }),
    call(url, 'POST', '/gw/apis', gw, { api_id: 'bad#id' }),
    call(url, 'POST', '/gw/policies', gw, { id: 'bad#id' }),
    call(url, 'PUT', '/gw/policies/warm', gw, { id: 'bad#id' }),
  ]);
}

// --- the burst ----------------------------------------------------------------------------------

interface Burst {
  acked: Acked[];
  rejected: Array<{ path: string; status: number; body: unknown }>;
  /** From the last answer's arrival to both SIGKILLs sent. */
  killGapMs: number;
}

/**
 * BURST_SIZE creates that each write one transaction (webhooks in the trial's own organisation;
 * users, classic APIs, policies in the base organisation), sent at once; the last answer to
 * arrive SIGKILLs both processes before anything else runs, so no other request follows the last
 * transaction.
 */
async function burst(url: string, secrets: Secrets, base: User, hooksUser: User, run: string, pids: Pids): Promise<Burst> {
  const admin = { 'admin-auth': secrets.adminSecret };
  const gw = { 'x-gw-authorization': secrets.gwSecret };
  const dash = { authorization: `Bearer ${hooksUser.key}` };
  const out: Burst = { acked: [], rejected: [], killGapMs: 0 };
  let unanswered = BURST_SIZE;
  let killed: Promise<void> | undefined;
  const answered = () => {
    if (--unanswered > 0) return;
    const at = performance.now();
    killed = kill(pids);
    out.killGapMs = Math.round((performance.now() - at) * 100) / 100;
  };
  const create = async (i: number): Promise<void> => {
    const id = `${run}-${i}`;
    let path: string;
    let headers: Record<string, string>;
    let body: unknown;
    let acked: (r: Answer) => Acked;
    if (i < 12) {
      const hook = { name: `hook ${id}`, method: 'POST', target_path: `https://hooks.example.com/${id}` };
      [path, headers, body] = ['/api/hooks', dash, hook];
      acked = (r) => ({ kind: 'hook', id: String(r.body.Meta), key: hooksUser.key, name: hook.name, target: hook.target_path, writes: 1 });
    } else if (i < 15) {
      const user = { org_id: base.orgId, email_address: `${id}@burst.example`, first_name: `First ${id}` };
      [path, headers, body] = ['/admin/users', admin, user];
      acked = (r) => ({
        kind: 'user',
        orgId: base.orgId,
        email: user.email_address,
        firstName: user.first_name,
        key: String(r.body.Meta.access_key),
        writes: 1,
      });
    } else if (i < 18) {
      const api: Api = {
        kind: 'api',
        id: `api-${id}`,
        orgId: base.orgId,
        name: `API ${id}`,
        listenPath: `/api-${id}/`,
        target: `http://upstream.example/${id}`,
        writes: 1,
      };
      [path, headers, body] = [
        '/gw/apis',
        gw,
        { api_id: api.id, name: api.name, org_id: api.orgId, proxy: { listen_path: api.listenPath, target_url: api.target } },
      ];
      acked = () => api;
    } else {
      const policy: Policy = { kind: 'policy', id: `pol-${id}`, orgId: base.orgId, acked: 1, writes: 1 };
      [path, headers, body] = ['/gw/policies', gw, policyBody(policy, 1)];
      acked = () => policy;
    }
    try {
      const r = await call(url, 'POST', path, headers, body);
      if (r.status === 200) out.acked.push(acked(r));
      else out.rejected.push({ path, status: r.status, body: r.body });
    } catch (e) {
      out.rejected.push({ path, status: 0, body: String(e) });
    }
    answered();
  };
  await Promise.all(Array.from({ length: BURST_SIZE }, (_, i) => create(i)));
  await killed;
  return out;
}

/** The burst's routes loaded before it (invalid bodies: 400, nothing stored), so its creates overlap. */
async function warmUpBurst(url: string, secrets: Secrets, base: User): Promise<void> {
  await Promise.all([warmUp(url, secrets), call(url, 'POST', '/api/hooks', { authorization: `Bearer ${base.key}` }, { method: 'bad' })]);
}

// --- verification -------------------------------------------------------------------------------

interface Loss {
  kind: Acked['kind'];
  id: string;
  lost: number;
  why: string;
}

/** Reads one acknowledged object back; answers the acknowledged writes it no longer shows. */
async function verifyOne(url: string, secrets: Secrets, a: Acked): Promise<Loss | 'in-flight landed' | undefined> {
  const admin = { 'admin-auth': secrets.adminSecret };
  const gw = { 'x-gw-authorization': secrets.gwSecret };
  switch (a.kind) {
    case 'org': {
      // No route reads an organisation; creating it again answers 409 exactly when it is stored.
      const r = await call(url, 'POST', '/admin/organisations', admin, { id: a.id });
      return r.status === 409 ? undefined : { kind: a.kind, id: a.id, lost: 1, why: `re-create answered ${r.status}, not 409` };
    }
    case 'user': {
      // The access key must still authenticate, and the organisation's list must show the user.
      const r = await call(url, 'GET', '/api/users?p=-1', { authorization: `Bearer ${a.key}` });
      const u = r.status === 200 ? (r.body.users ?? []).find((x: any) => x.email_address === a.email) : undefined;
      if (!u) return { kind: a.kind, id: a.email, lost: 1, why: `GET /api/users answered ${r.status} without the user` };
      if (u.first_name !== a.firstName || u.org_id !== a.orgId) return { kind: a.kind, id: a.email, lost: 1, why: `stored ${JSON.stringify(u)}` };
      return undefined;
    }
    case 'api': {
      const r = await call(url, 'GET', `/gw/apis/${a.id}`, gw);
      if (r.status !== 200) return { kind: a.kind, id: a.id, lost: 1, why: `GET answered ${r.status}` };
      const b = r.body;
      const same = b.api_id === a.id && b.name === a.name && b.org_id === a.orgId && b.proxy?.listen_path === a.listenPath && b.proxy?.target_url === a.target;
      return same ? undefined : { kind: a.kind, id: a.id, lost: 1, why: `stored ${JSON.stringify({ name: b.name, org_id: b.org_id, proxy: b.proxy })}` };
    }
    case 'policy': {
      const r = await call(url, 'GET', `/gw/policies/${a.id}`, gw);
      if (r.status !== 200) return { kind: a.kind, id: a.id, lost: a.writes, why: `GET answered ${r.status}` };
      const v = Number(r.body.rate);
      const want = policyBody(a, v);
      const whole = r.body.name === want.name && r.body.quota_max === want.quota_max && r.body.tags?.[0] === want.tags[0] && r.body.org_id === a.orgId;
      if (!whole) return { kind: a.kind, id: a.id, lost: 1, why: `stored a mix of versions: ${JSON.stringify(r.body)}` };
      // The last acknowledged version, or the one PUT that was in flight at the crash.
      if (v === a.acked) return undefined;
      if (a.pending !== undefined && v === a.pending) return 'in-flight landed';
      if (v < a.acked) return { kind: a.kind, id: a.id, lost: a.acked - v, why: `shows v${v}, v${a.acked} was acknowledged` };
      return { kind: a.kind, id: a.id, lost: 1, why: `shows v${v}, never sent (acknowledged v${a.acked})` };
    }
    case 'hook': {
      const r = await call(url, 'GET', `/api/hooks/${a.id}`, { authorization: `Bearer ${a.key}` });
      if (r.status !== 200) return { kind: a.kind, id: a.id, lost: 1, why: `GET answered ${r.status}` };
      const same = r.body.name === a.name && r.body.target_path === a.target;
      return same ? undefined : { kind: a.kind, id: a.id, lost: 1, why: `stored ${JSON.stringify({ name: r.body.name, target_path: r.body.target_path })}` };
    }
  }
}

async function verifyAll(url: string, secrets: Secrets, acked: Acked[]): Promise<{ losses: Loss[]; landed: number }> {
  const losses: Loss[] = [];
  let landed = 0;
  let next = 0;
  const worker = async () => {
    while (next < acked.length) {
      const a = acked[next++]!;
      const r = await verifyOne(url, secrets, a);
      if (r === 'in-flight landed') landed++;
      else if (r) losses.push(r);
    }
  };
  await Promise.all(Array.from({ length: VERIFY_CONCURRENCY }, worker));
  return { losses, landed };
}

/**
 * The control: objects that were never written (and a policy version never sent) must each be
 * reported lost, or the checks above could pass without reading anything.
 */
async function verifierDetectsLoss(url: string, secrets: Secrets, all: Acked[], run: string): Promise<boolean> {
  const policy = all.find((a): a is Policy => a.kind === 'policy');
  const api = all.find((a): a is Api => a.kind === 'api');
  const user = all.find((a): a is User => a.kind === 'user');
  const hook = all.find((a): a is Hook => a.kind === 'hook');
  const ghost = `ghost-${run}`;
  const controls: Acked[] = [
    { kind: 'org', id: `${ghost}-org`, writes: 1 },
    { kind: 'api', id: `${ghost}-api`, orgId: 'x', name: 'x', listenPath: '/x/', target: 'http://x.example', writes: 1 },
    { kind: 'policy', id: `${ghost}-pol`, orgId: 'x', acked: 1, writes: 1 },
    { kind: 'user', orgId: 'x', email: 'x@x.example', firstName: 'x', key: `${ghost}-key`, writes: 1 },
  ];
  if (policy) controls.push({ ...policy, acked: policy.acked + 2, pending: undefined });
  if (api) controls.push({ ...api, name: `${api.name} (never sent)` });
  if (user) controls.push({ ...user, firstName: `${user.firstName} (never sent)` });
  if (hook) controls.push({ ...hook, id: `${ghost}-hook` }, { ...hook, name: `${hook.name} (never sent)` });
  const found = await Promise.all(controls.map((c) => verifyOne(url, secrets, c)));
  return found.every((f) => typeof f === 'object');
}

// --- the trials ---------------------------------------------------------------------------------

interface Secrets {
  gwSecret: string;
  adminSecret: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const writesOf = (list: Acked[]) => list.reduce((n, a) => n + a.writes, 0);

interface TrialResult {
  trial: number;
  acknowledged: number;
  acknowledged_total: number;
  verified: number;
  lost: number;
  restart_to_ready_ms: number;
  kill_after_ms: number;
  killed_pids: { server: number; dynamodb: number };
  acknowledged_by_kind: Record<string, number>;
  rejected_before_crash: number;
  in_flight_at_crash: number;
  in_flight_policy_puts_that_landed: number;
  losses: Loss[];
}

interface BurstResult {
  trial: number;
  acknowledged: number;
  acknowledged_total: number;
  verified: number;
  lost: number;
  restart_to_ready_ms: number;
  kill_gap_ms: number;
  rejected: number;
  losses: Loss[];
}

async function main() {
  const watchdog = setTimeout(() => {
    console.error(`durability: over ${WATCHDOG_MS / 1000} s, aborting`);
    killAll();
    process.exit(2);
  }, WATCHDOG_MS);
  watchdog.unref();
  const startedAt = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-durability-'));
  console.log(`DATA_DIR ${dataDir}`);

  let stage = await startStage(dataDir);
  const firstReadyMs = stage.readyMs;
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as Secrets;
  const results: TrialResult[] = [];
  // An organisation and user for the writers to start on; checked after every crash like the rest.
  const baseOrg = `base-${Date.now().toString(36)}`;
  const baseUser: User = { kind: 'user', orgId: baseOrg, email: `${baseOrg}@durability.example`, firstName: 'Base', key: '', writes: 1 };
  const o = await call(stage.url, 'POST', '/admin/organisations', { 'admin-auth': secrets.adminSecret }, { id: baseOrg });
  const u = await call(
    stage.url,
    'POST',
    '/admin/users',
    { 'admin-auth': secrets.adminSecret },
    { org_id: baseOrg, email_address: baseUser.email, first_name: 'Base' },
  );
  if (o.status !== 200 || u.status !== 200) throw new Error(`base tenant not created: ${o.status} ${u.status}`);
  baseUser.key = String(u.body.Meta.access_key);
  const all: Acked[] = [{ kind: 'org', id: baseOrg, writes: 1 }, baseUser];

  for (let trial = 1; trial <= TRIALS; trial++) {
    const stop = { now: false };
    const run = `t${trial}${Date.now().toString(36)}`;
    const killAfter = 1_000 + Math.floor(Math.random() * 2_000);
    const load: Load = { acked: [], writes: 0, rejected: [], inFlight: 0 };
    await warmUp(stage.url, secrets);
    const loading = driveLoad(stage.url, secrets, run, stop, load, baseOrg);
    await sleep(killAfter);
    const inFlight = load.inFlight;
    const killed = await crash(stage, dataDir);
    stop.now = true;
    await loading;
    all.push(...load.acked);

    stage = await startStage(dataDir);
    const { losses, landed } = await verifyAll(stage.url, secrets, all);
    if (!(await verifierDetectsLoss(stage.url, secrets, all, run))) throw new Error('the verifier did not notice writes that never happened');
    const lost = losses.reduce((n, l) => n + l.lost, 0);
    const total = writesOf(all);
    const byKind: Record<string, number> = {};
    for (const a of load.acked) byKind[a.kind] = (byKind[a.kind] ?? 0) + a.writes;
    results.push({
      trial,
      acknowledged: load.writes,
      acknowledged_total: total,
      verified: total - lost,
      lost,
      restart_to_ready_ms: stage.readyMs,
      kill_after_ms: killAfter,
      killed_pids: killed,
      acknowledged_by_kind: byKind,
      rejected_before_crash: load.rejected.length,
      in_flight_at_crash: inFlight,
      in_flight_policy_puts_that_landed: landed,
      losses: losses.slice(0, 50),
    });
    if (load.rejected.length)
      console.error(`trial ${trial}: ${load.rejected.length} writes rejected before the crash, e.g. ${JSON.stringify(load.rejected[0])}`);
    for (const l of losses.slice(0, 10)) console.error(`trial ${trial}: LOST ${l.lost} write(s) of ${l.kind} ${l.id}: ${l.why}`);
  }

  const bursts: BurstResult[] = [];
  for (let trial = 1; trial <= BURST_TRIALS; trial++) {
    const run = `b${trial}${Date.now().toString(36)}`;
    // The burst's webhooks go to an organisation of their own: one holds at most 100 (docs/reference/limits.md).
    const hooksOrg = `hooks-${run}`;
    const ho = await call(stage.url, 'POST', '/admin/organisations', { 'admin-auth': secrets.adminSecret }, { id: hooksOrg });
    const hu = await call(
      stage.url,
      'POST',
      '/admin/users',
      { 'admin-auth': secrets.adminSecret },
      { org_id: hooksOrg, email_address: `${hooksOrg}@durability.example` },
    );
    if (ho.status !== 200 || hu.status !== 200) throw new Error(`burst tenant not created: ${ho.status} ${hu.status}`);
    const hooksUser: User = {
      kind: 'user',
      orgId: hooksOrg,
      email: `${hooksOrg}@durability.example`,
      firstName: '',
      key: String(hu.body.Meta.access_key),
      writes: 1,
    };
    await warmUpBurst(stage.url, secrets, baseUser);
    const b = await burst(stage.url, secrets, baseUser, hooksUser, run, stagePids(stage, dataDir));
    all.push(...b.acked);

    stage = await startStage(dataDir);
    const { losses } = await verifyAll(stage.url, secrets, all);
    if (!(await verifierDetectsLoss(stage.url, secrets, all, run))) throw new Error('the verifier did not notice writes that never happened');
    const lost = losses.reduce((n, l) => n + l.lost, 0);
    const total = writesOf(all);
    bursts.push({
      trial,
      acknowledged: b.acked.length,
      acknowledged_total: total,
      verified: total - lost,
      lost,
      restart_to_ready_ms: stage.readyMs,
      kill_gap_ms: b.killGapMs,
      rejected: b.rejected.length,
      losses: losses.slice(0, 50),
    });
    if (b.rejected.length) console.error(`burst ${trial}: ${b.rejected.length} creates not acknowledged, e.g. ${JSON.stringify(b.rejected[0])}`);
    for (const l of losses.slice(0, 10)) console.error(`burst ${trial}: LOST ${l.lost} write(s) of ${l.kind} ${l.id}: ${l.why}`);
  }
  await stopStage(stage);

  const lostAny = results.some((r) => r.lost > 0) || bursts.some((r) => r.lost > 0);
  const rows = [
    ['trial', 'acknowledged', 'checked (all trials)', 'verified', 'lost', 'restart-to-ready ms', 'killed after ms', 'in flight at kill'],
    ...results.map((r) =>
      [r.trial, r.acknowledged, r.acknowledged_total, r.verified, r.lost, r.restart_to_ready_ms, r.kill_after_ms, r.in_flight_at_crash].map(String),
    ),
  ];
  const print = (rows: string[][]) => {
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) console.log(r.map((c, i) => c.padStart(widths[i]!)).join('  '));
  };
  print(rows);
  print([
    ['burst', 'acknowledged', 'checked (all trials)', 'verified', 'lost', 'restart-to-ready ms', 'last answer to kill ms'],
    ...bursts.map((r) => [r.trial, r.acknowledged, r.acknowledged_total, r.verified, r.lost, r.restart_to_ready_ms, r.kill_gap_ms].map(String)),
  ]);
  console.log(`first start to ready: ${firstReadyMs} ms; total run ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);

  // DURABILITY_OUT lets the test suite run this without rewriting the committed figures.
  const outFile = process.env.DURABILITY_OUT || join(ROOT, 'bench', 'durability.json');
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(
    outFile,
    `${JSON.stringify(
      {
        command: 'npm run durability',
        date: new Date().toISOString(),
        node: process.version,
        writers: WRITERS,
        method:
          'one DATA_DIR for all trials; per trial: concurrent writers (organisations, users, classic APIs, policies and policy PUTs), ' +
          'SIGKILL of the server and DynamoDB Local after a random 1-3 s, restart on the same DATA_DIR, every acknowledged write so far read back; ' +
          'a control of never-written objects must be reported lost each trial',
        burst_method:
          `then, on the same DATA_DIR, per burst trial: ${BURST_SIZE} transactional creates sent at once (12 webhooks, 3 users, 3 classic APIs, 2 policies), ` +
          'SIGKILL of both processes as the last answer arrives, restart, every acknowledged write so far read back, the same control',
        local_commit_wait: process.env.LOCAL_COMMIT_WAIT === 'off' ? 'off' : 'on',
        first_start_to_ready_ms: firstReadyMs,
        all_acknowledged_writes_survived: !lostAny,
        trials: results,
        burst_size: BURST_SIZE,
        burst_trials: bursts,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`wrote ${outFile}`);
  if (lostAny) {
    console.error(`acknowledged writes were lost; DATA_DIR kept at ${dataDir}`);
    process.exit(1);
  }
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  killAll();
  process.exit(1);
});
