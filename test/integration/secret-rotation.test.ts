/**
 * Rotating a deployment secret without downtime (docs/operating/security.md "Rotate a deployment secret"), through
 * the local stage's HTTP server with the cloud code path: the group secrets come from a Secrets
 * Manager by ARN (a fake one, reached by the SDK client the functions use), and the clock is fake.
 * - a warm function re-reads its group's secret at most every SECRET_REFRESH_SECONDS;
 * - after a new version is put, the old and the new value are both accepted until
 *   SECRET_ROTATION_WINDOW_SECONDS after the new version was created, then only the new one.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { resetSecrets } from '../../shared/secrets';
import { startFakeSecretsManager, type FakeSecretsManager } from '../support/fake-secrets-manager';
import { startStage, type Stage } from '../support/stage';
import { putBackEnvironment } from '../support/environment';

const GW_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:gw-test/gateway-AbCdEf';
const ADMIN_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:gw-test/admin-GhIjKl';
const REFRESH_S = 300;
const WINDOW_S = 3600;
const T0 = Date.parse('2026-06-01T00:00:00Z');

let s: Stage;
let sm: FakeSecretsManager;
const saved = { ...process.env };

beforeAll(async () => {
  s = await startStage();
  sm = await startFakeSecretsManager();
});
afterAll(async () => {
  vi.useRealTimers();
  putBackEnvironment(saved);
  resetConfig();
  resetSecrets();
  await s?.close();
  await sm?.close();
});

/** A fresh process of the cloud stage (cold start): secrets by ARN only, the clock at `at`. */
function coldStart(at: number, env: Record<string, string> = {}): void {
  vi.setSystemTime(at);
  delete process.env.GW_SECRET;
  delete process.env.ADMIN_SECRET;
  Object.assign(process.env, {
    GW_SECRET_ARN: GW_ARN,
    ADMIN_SECRET_ARN: ADMIN_ARN,
    SECRET_REFRESH_SECONDS: String(REFRESH_S),
    SECRET_ROTATION_WINDOW_SECONDS: String(WINDOW_S),
    AWS_ENDPOINT_URL_SECRETS_MANAGER: sm.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    ...env,
  });
  resetConfig();
  resetSecrets();
}

// Only Date is faked: the servers' sockets and the SDK's timers run on real time.
beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

const at = (seconds: number) => vi.setSystemTime(T0 + seconds * 1000);
/** The gateway's answer with this credential: 404 (accepted: the policy does not exist) or 401. */
const gw = async (secret: string) => (await s.call('GET', '/gw/policies/no-such-policy', { headers: { 'x-gw-authorization': secret } })).status;
/** The admin API's answer: 400 (accepted: the body is malformed JSON, nothing is written) or 401. */
const admin = async (secret: string) =>
  (await s.call('POST', '/admin/organisations', { headers: { 'admin-auth': secret, 'content-type': 'application/json' }, body: '{' })).status;

describe('two versions of a group secret during the rotation window', () => {
  it('accepts old and new until the window closes, then only the new one', async () => {
    at(-86_400);
    sm.put(GW_ARN, 'gw-old');
    sm.put(ADMIN_ARN, 'admin-old');
    coldStart(T0);
    expect(await gw('gw-old')).toBe(404);
    expect(await admin('admin-old')).toBe(400);

    // put-secret-value at t = 10 s: the new version is created now, the old one staged AWSPREVIOUS.
    at(10);
    sm.put(GW_ARN, 'gw-new');
    sm.put(ADMIN_ARN, 'admin-new');
    // This warm process read its secrets at t = 0 and has not re-read them yet.
    at(REFRESH_S - 1);
    expect(await gw('gw-new')).toBe(401);
    expect(await gw('gw-old')).toBe(404);

    // Its next read (due at t = 300 s) learns the new version; the old one is still accepted.
    at(REFRESH_S);
    expect(await gw('gw-new')).toBe(404);
    expect(await gw('gw-old')).toBe(404);
    expect(await admin('admin-new')).toBe(400);
    expect(await admin('admin-old')).toBe(400);

    // The window is counted from the new version's creation (t = 10 s), not from any read.
    at(10 + WINDOW_S - 1);
    expect(await gw('gw-old')).toBe(404);
    expect(await admin('admin-old')).toBe(400);
    at(10 + WINDOW_S);
    expect(await gw('gw-old')).toBe(401);
    expect(await admin('admin-old')).toBe(401);
    expect(await gw('gw-new')).toBe(404);
    expect(await admin('admin-new')).toBe(400);
    // A value of neither version is refused throughout.
    expect(await gw('gw-other')).toBe(401);
  });

  it('a process started during the window accepts both at once; one started after it reads and accepts only the new one', async () => {
    at(0);
    sm.put(GW_ARN, 'gw-a');
    at(100);
    sm.put(GW_ARN, 'gw-b');
    coldStart(T0 + 200 * 1000);
    expect(await gw('gw-a')).toBe(404);
    expect(await gw('gw-b')).toBe(404);

    const before = sm.reads(GW_ARN);
    coldStart(T0 + (100 + WINDOW_S) * 1000);
    expect(await gw('gw-a')).toBe(401);
    expect(await gw('gw-b')).toBe(404);
    // Past the window the previous version is not even read.
    expect(sm.reads(GW_ARN)).toEqual({ AWSCURRENT: before.AWSCURRENT + 1, AWSPREVIOUS: before.AWSPREVIOUS });
  });

  it('a window of 0 accepts only the new value as soon as the process has read it', async () => {
    at(0);
    sm.put(GW_ARN, 'gw-c');
    coldStart(T0, { SECRET_ROTATION_WINDOW_SECONDS: '0' });
    expect(await gw('gw-c')).toBe(404);
    at(1);
    sm.put(GW_ARN, 'gw-d');
    at(REFRESH_S);
    expect(await gw('gw-d')).toBe(404);
    expect(await gw('gw-c')).toBe(401);
  });
});

describe('re-reading the secret', () => {
  it('reads at most once every SECRET_REFRESH_SECONDS, however many requests arrive', async () => {
    at(0);
    sm.put(GW_ARN, 'gw-r1');
    coldStart(T0);
    const start = sm.reads(GW_ARN).AWSCURRENT;
    for (let t = 0; t < REFRESH_S; t += 30) {
      at(t);
      expect(await gw('gw-r1')).toBe(404);
    }
    expect(sm.reads(GW_ARN).AWSCURRENT - start).toBe(1);
    at(REFRESH_S);
    await Promise.all([gw('gw-r1'), gw('gw-r1'), gw('gw-r1')]);
    // Due again: one read for the three concurrent requests.
    expect(sm.reads(GW_ARN).AWSCURRENT - start).toBe(2);
    at(2 * REFRESH_S - 1);
    expect(await gw('gw-r1')).toBe(404);
    expect(sm.reads(GW_ARN).AWSCURRENT - start).toBe(2);
  });

  it('SECRET_REFRESH_SECONDS is configurable', async () => {
    at(0);
    sm.put(GW_ARN, 'gw-f1');
    coldStart(T0, { SECRET_REFRESH_SECONDS: '60' });
    expect(await gw('gw-f1')).toBe(404);
    at(1);
    sm.put(GW_ARN, 'gw-f2');
    at(59);
    expect(await gw('gw-f2')).toBe(401);
    at(60);
    expect(await gw('gw-f2')).toBe(404);
  });

  it('a failed re-read keeps the versions already read (no 401 while Secrets Manager is away), and is retried after another interval', async () => {
    at(0);
    sm.put(GW_ARN, 'gw-s1');
    coldStart(T0);
    expect(await gw('gw-s1')).toBe(404);
    sm.failing = true;
    try {
      at(REFRESH_S);
      const before = sm.reads(GW_ARN).AWSCURRENT;
      expect(await gw('gw-s1')).toBe(404);
      const afterFailure = sm.reads(GW_ARN).AWSCURRENT;
      expect(afterFailure).toBeGreaterThan(before);
      at(REFRESH_S + 10);
      expect(await gw('gw-s1')).toBe(404);
      expect(sm.reads(GW_ARN).AWSCURRENT).toBe(afterFailure);
    } finally {
      sm.failing = false;
    }
    sm.put(GW_ARN, 'gw-s2');
    at(2 * REFRESH_S);
    expect(await gw('gw-s2')).toBe(404);
  });
});
