/**
 * Every log line names the work that wrote it (docs/reference/configuration.md, LOG_LEVEL): the local stage
 * serves many requests and runs the change feed at once in one process, so each line carries the
 * request id and route of its own request, and the change feed's lines (its delivery and audit
 * consumers, the attempt queue) their own name and no request id. The lines are read from this
 * process's output and the environment is this process's, so this runs on the in-process stage
 * only; the stage logs at debug, where every request writes a line.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { SERVICE_NAME } from '../../shared/observability/service';
import { hookBody, rightsFor, uid } from '../support/fixtures';
import { onEmulator, startStage, type Answer, type Stage } from '../support/stage';
import { startReceiver, type Receiver } from '../support/receiver';
import { withBrokenWrites } from '../support/storage-faults';

let s: Stage;
let t: { orgId: string; key: string };
let rx: Receiver;

const suite = onEmulator ? describe.skip : describe;

beforeAll(async () => {
  if (onEmulator) return;
  // A receiver on 127.0.0.1 that fails every call, so the attempt queue logs each attempt.
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  rx = await startReceiver(() => 500);
  s = await startStage({ changeFeed: true });
  t = await s.tenant();
});
afterAll(async () => {
  await s?.close();
  await rx?.close();
  delete process.env.ALLOW_PRIVATE_TARGETS;
});

interface Line {
  level: string;
  message: string;
  requestId?: string;
  route?: string;
  status?: number;
  function_request_id?: string;
}

/** The service's log lines from now until stop(), in the order written; nothing of them reaches the terminal. */
function captureLog(): { lines: Line[]; stop(): void } {
  const lines: Line[] = [];
  const keep = (chunk: unknown) => {
    for (const text of String(chunk).split('\n')) {
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as Line & { service?: string };
      if (line.service === SERVICE_NAME) lines.push(line);
    }
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  return {
    lines,
    stop() {
      out.mockRestore();
      err.mockRestore();
    },
  };
}

/** A webhook of the tenant calling `target`; answers its id. */
async function makeHook(target: string): Promise<string> {
  const hook = await s.dash(t.key, 'POST', '/api/hooks', { ...hookBody(uid('loghook')), target_path: target });
  expect(hook.status).toBe(200);
  return hook.body.Meta as string;
}

/** An API whose key and quota events go to the hook. */
async function routedApi(hookId: string): Promise<string> {
  const apiId = uid('logapi');
  const handlers = [{ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: hookId } }];
  const r = await s.gw('POST', '/gw/apis', {
    api_id: apiId,
    name: apiId,
    org_id: t.orgId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
    event_handlers: { events: { TokenCreated: handlers, QuotaExceeded: handlers } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return apiId;
}

const CHECK = 'POST /gw/sessions/check';
const POLICY = 'POST /gw/policies';
const KEY = 'POST /gw/keys/create';
/** What the change feed's own work is called in its lines (the local stage runs all three in its process). */
const FEED_WORK = ['change-feed', 'audit-trail', 'attempt-queue'];

suite('log lines under concurrency', () => {
  it('every line carries the request id and route of the request that wrote it, and the change feed its own name', async () => {
    // The checks' API: its events go to a hook whose deliveries cannot be made (see below).
    const broken = await makeHook('https://hooks.example/x');
    const apiId = await routedApi(broken);
    // Another API of the same key: its events are delivered, to the failing receiver.
    const delivered = await routedApi(await makeHook(`${rx.url}/hook`));
    const marker = uid('logfail');

    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'debug';
    resetConfig();
    const log = captureLog();
    /** Every answer in the window, by its X-Request-Id: the route it was sent to. */
    const sent = new Map<string, { route: string; answer: Answer }>();
    const send = async (route: string, call: () => Promise<Answer>) => {
      const answer = await call();
      sent.set(answer.headers.get('x-request-id')!, { route, answer });
      return answer;
    };
    const feedFailed = (from: number) => log.lines.slice(from).some((l) => l.route === 'change-feed' && /record failed/.test(l.message));
    const logged = (message: RegExp) => log.lines.some((l) => message.test(l.message));
    /** Audit entries refused so far: a second means the audit consumer failed a record and logged it. */
    let auditRefused = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    try {
      await withBrokenWrites(
        // Every delivery to the broken hook and every audit entry fail, so the change feed's two
        // consumers hand the same records over again while the requests run; the policies' writes
        // fail once the checks and the feed have logged.
        (input) => {
          if (input.includes('"AUDIT#')) auditRefused++;
          if (input.includes(`"HOOKDLV#${t.orgId}#${broken}"`) || input.includes('"AUDIT#')) return Promise.resolve();
          return input.includes(marker) ? held : false;
        },
        async () => {
          // The key's TokenCreated keeps the change feed failing (and logging) from here on, and its
          // delivery to the receiver keeps the attempt queue failing.
          const made = await send(KEY, () =>
            s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: rightsFor(apiId, delivered), quota_max: 10, quota_renewal_rate: 3600 }),
          );
          expect(made.status).toBe(200);
          const key = made.body.key as string;
          await vi.waitFor(() => expect(feedFailed(0)).toBe(true), { timeout: 15_000 });

          const policies = Array.from({ length: 3 }, (_, i) =>
            send(POLICY, () => s.gw('POST', '/gw/policies', { id: `${marker}-${i}`, name: 'P', org_id: t.orgId, access_rights: rightsFor(apiId) })),
          );
          const checksFrom = log.lines.length;
          const checks = await Promise.all(Array.from({ length: 30 }, () => send(CHECK, () => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId }))));
          expect(new Set(checks.map((c) => c.status))).toEqual(new Set([200, 429]));
          // The feed logs again while the policies are still under way, before their writes fail.
          await vi.waitFor(() => expect(feedFailed(checksFrom)).toBe(true), { timeout: 15_000 });
          release();
          for (const p of await Promise.all(policies)) expect(p.status).toBe(500);
          await vi.waitFor(() => expect(auditRefused).toBeGreaterThan(1), { timeout: 15_000 });
          await rx.waitFor(1, 15_000);
          await vi.waitFor(() => expect(logged(/^webhook attempt failed/)).toBe(true), { timeout: 15_000 });
        },
      );
    } finally {
      release();
      log.stop();
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
      resetConfig();
    }

    const lines = log.lines;
    // Each line of a request names that request (one the test sent) and its route.
    for (const line of lines.filter((l) => l.requestId !== undefined)) {
      expect(sent.get(line.requestId!)?.route, JSON.stringify(line)).toBe(line.route);
    }
    // A line without a request id is the change feed's own work, never a request's.
    for (const line of lines.filter((l) => l.requestId === undefined)) {
      expect(FEED_WORK, JSON.stringify(line)).toContain(line.route);
    }
    // The change feed's lines name the feed's work, never a request that ran beside it.
    for (const line of lines.filter((l) => /^(change feed|audit trail|webhook attempt)/.test(l.message))) {
      expect(FEED_WORK, JSON.stringify(line)).toContain(line.route);
      expect(line, JSON.stringify(line)).not.toHaveProperty('requestId');
    }
    // The Lambda context's request id, where a line has one, is its own request's.
    for (const line of lines.filter((l) => l.function_request_id !== undefined)) {
      expect(line.function_request_id, JSON.stringify(line)).toBe(line.requestId);
    }
    // Every request wrote its one `request` line, with its own status.
    for (const [id, { route, answer }] of sent) {
      expect(lines.filter((l) => l.message === 'request' && l.requestId === id)).toEqual([expect.objectContaining({ route, status: answer.status })]);
    }
    // The 500's request id finds its error in the log, and only there.
    const failures = [...sent].filter(([, { answer }]) => answer.status === 500);
    expect(failures.map(([, { route }]) => route)).toEqual([POLICY, POLICY, POLICY]);
    for (const [id] of failures) {
      expect(lines.filter((l) => l.level === 'ERROR' && l.requestId === id)).toEqual([expect.objectContaining({ message: 'unhandled error', route: POLICY })]);
    }
    expect(lines.filter((l) => l.level === 'ERROR' && l.route === POLICY)).toHaveLength(3);
    // The change feed's lines: each consumer's handler's and the local poller's own, under the consumer's name.
    const of = (route: string) => lines.filter((l) => l.route === route).map((l) => l.message);
    expect(of('change-feed')).toContainEqual(expect.stringMatching(/^change feed: record failed; it is handed over again/));
    expect(of('change-feed')).toContainEqual(expect.stringMatching(/webhook delivery: \d+ record\(s\) failed, handed over again/));
    expect(of('audit-trail')).toContainEqual(expect.stringMatching(/^audit trail: record failed; it is handed over again/));
    expect(of('audit-trail')).toContainEqual(expect.stringMatching(/audit trail: \d+ record\(s\) failed, handed over again/));
    expect(of('attempt-queue')).toContainEqual('webhook attempt failed');
  });
});
