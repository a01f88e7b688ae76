/**
 * Definitions on the managed data plane (docs/operating/data-plane.md), in the emulator: the stack
 * synthesized with `-c dataPlane=on` served by `npm run emulate` (IAM enforced), its reconciler on
 * the emulator's schedule (SCHEDULE_SECONDS=1, standing in for the stream the cloud runs it by).
 * From a definition's write (a dashboard user's POST /api/apis) to the first request the data
 * plane serves for it: 20 new APIs, one at a time, each timed from the write's answer to the data
 * plane's first answer on its listen path that is not API Gateway's 404 (a request without a key:
 * the route exists, so 401 before the authorizer runs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../infra/local/dynamodb-local';
import { assemblyFor, isFresh, ROOT, synthesize, templateOf } from '../../infra/local/emulator/synth';
import { call } from '../lib/http';
import { median, percentile, round, type Row } from '../lib/stats';

const SCENARIO = 'definitions on the data plane (emulator)';
const CHANGES = 20;
const DOMAINS = 5;
const ADMIN = 'bench-admin-secret';

export async function dataPlane(): Promise<Row[]> {
  const context = { dataPlane: 'on' };
  const assembly = assemblyFor(context);
  if (!isFresh(assembly)) await synthesize(assembly, { context, output: () => undefined });
  const [port, dataPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-plane-'));
  const child = spawn('npm', ['run', '--silent', 'emulate', '--', '--template', templateOf(assembly)], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_PLANE_PORT: String(dataPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_SECRET: ADMIN,
      SCHEDULE_SECONDS: '1',
      ACM_CERTIFICATES: '*.bench.test',
      // A table of its own in a DynamoDB Local of its own: earlier scenarios of a whole run leave
      // DYNAMODB_ENDPOINT and TABLE_NAME naming a table with thousands of APIs, past the 150 listen
      // paths one data-plane API serves, so new APIs were left out and never served.
      DYNAMODB_ENDPOINT: '',
      TABLE_NAME: `bench-data-plane-${Date.now().toString(36)}`,
    },
  });
  const log: string[] = [];
  for (const out of [child.stdout!, child.stderr!]) createInterface({ input: out }).on('line', (l) => log.push(l));
  try {
    for (const deadline = Date.now() + 120_000; !log.some((l) => l.startsWith('Emulated cloud stage listening on')); ) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm run emulate did not start:\n${log.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const stage = `http://127.0.0.1:${port}`;
    const admin = { 'admin-auth': ADMIN };
    const orgId = `bench-dp-${Date.now().toString(36)}`;
    await call(stage, 'POST', '/admin/organisations', admin, { id: orgId, owner_name: orgId });
    const user = await call(stage, 'POST', '/admin/users', admin, { org_id: orgId, email_address: `${orgId}@example.com`, first_name: 'b', last_name: 'b' });
    const dash = { authorization: `Bearer ${user.body.Meta.access_key as string}` };
    /** From the write's answer to the first answer on the listen path that is not API Gateway's 404. */
    const firstServed = async (apiId: string, domain?: string): Promise<number> => {
      const made = await call(stage, 'POST', '/api/apis', dash, {
        api_definition: {
          api_id: apiId,
          name: apiId,
          ...(domain ? { domain } : {}),
          proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
        },
      });
      if (made.status !== 200) throw new Error(`API create: ${made.status} ${made.text}`);
      const t0 = performance.now();
      while ((await call(`http://127.0.0.1:${dataPort}`, 'GET', `/${apiId}/x`, domain ? { host: domain } : {})).status === 404) {
        if (performance.now() - t0 > 30_000) throw new Error(`${apiId} was not served within 30 s; the emulator's last lines:\n${log.slice(-15).join('\n')}`);
        await new Promise((res) => setTimeout(res, 20));
      }
      return performance.now() - t0;
    };
    const times: number[] = [];
    for (let i = 0; i < CHANGES; i++) times.push(await firstServed(`${orgId}-${i}`));
    const domainTimes: number[] = [];
    for (let i = 0; i < DOMAINS; i++) {
      const domain = `d${i}-${orgId}.bench.test`;
      const granted = await call(stage, 'PUT', `/admin/organisations/${orgId}/domains/${domain}`, admin);
      if (granted.status !== 200) throw new Error(`domain grant: ${granted.status} ${granted.text}`);
      domainTimes.push(await firstServed(`${orgId}-d${i}`, domain));
    }
    const p50 = round(median(times), 0);
    const max = round(percentile(times, 100), 0);
    const detail = { changes: CHANGES, schedule_seconds: 1, p50_ms: p50, max_ms: max, samples_ms: times.map((t) => Math.round(t)).join(' ') };
    return [
      {
        scenario: SCENARIO,
        measured: 'write to first request served, p50 (reconciler every 1 s)',
        value: p50,
        target: 'ms; within 5 s',
        pass: p50 <= 5000,
        detail,
      },
      { scenario: SCENARIO, measured: 'write to first request served, max of 20', value: max, target: '<= 5000 ms', pass: max <= 5000, detail },
      {
        scenario: SCENARIO,
        measured: 'write on a newly granted domain to its first request served, max of 5 (its own HTTP API, domain name, mapping)',
        value: round(percentile(domainTimes, 100), 0),
        target: '<= 5000 ms',
        pass: percentile(domainTimes, 100) <= 5000,
        detail: { domains: DOMAINS, samples_ms: domainTimes.map((t) => Math.round(t)).join(' ') },
      },
    ];
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
