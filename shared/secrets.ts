import { config, type Config } from './config';
import { acceptedValues, previousStillAccepted, refreshDue, type SecretVersion, type SecretVersions } from './domain/secret-versions';
import { deriveKey, type KeyPurpose } from './domain/service-keys';
import { secretEquals } from './lib/hashing';
import { errorField, logger } from './observability/logger';
import { traced } from './observability/tracer';

type Which = 'gw' | 'admin' | 'server';
/** The secrets a client sends (gateway and admin): these rotate with a window. */
export type GroupSecret = Exclude<Which, 'server'>;

/** Where each secret comes from: its clear value (local stage, tests) or its ARN (cloud). */
const SOURCES: Record<Which, { env: string; clear: (c: Config) => string | undefined; arn: (c: Config) => string | undefined }> = {
  gw: { env: 'GW_SECRET', clear: (c) => c.gwSecret, arn: (c) => c.gwSecretArn },
  admin: { env: 'ADMIN_SECRET', clear: (c) => c.adminSecret, arn: (c) => c.adminSecretArn },
  server: { env: 'SERVER_SECRET', clear: (c) => c.serverSecret, arn: (c) => c.serverSecretArn },
};

/**
 * Whether `given` is one of the values a group credential may equal now. Each accepted value is
 * compared in constant time, and all of them always, so the answer's timing names none.
 */
export async function secretAccepted(which: GroupSecret, given: string): Promise<boolean> {
  const matches = (await acceptedSecrets(which)).map((accepted) => secretEquals(given, accepted));
  return matches.includes(true);
}

/** The last versions read of each group secret, and the read under way (one at a time). */
const groupState = new Map<GroupSecret, { versions?: SecretVersions; reading?: Promise<SecretVersions> }>();
const serverSecret = new Map<'server', Promise<string>>();
const derived = new Map<KeyPurpose, Promise<Buffer>>();

/**
 * The values a gateway or admin credential may equal now (docs/operating/security.md "Rotate a deployment secret").
 * Local stage and tests: the clear value from the environment. Cloud: the version staged
 * AWSCURRENT, read on first use and again at most every SECRET_REFRESH_SECONDS, plus the version
 * staged AWSPREVIOUS until SECRET_ROTATION_WINDOW_SECONDS after the current one was created. A
 * failed re-read keeps the versions already known (logged), so a Secrets Manager hiccup never
 * turns into 401s; only a process that never read its secret fails the request.
 */
async function acceptedSecrets(which: GroupSecret): Promise<string[]> {
  const c = config();
  const source = SOURCES[which];
  const clear = source.clear(c);
  if (clear) return [clear];
  const arn = source.arn(c);
  if (!arn) throw new Error(`no ${which} secret configured (set ${source.env})`);
  const state = groupState.get(which) ?? {};
  groupState.set(which, state);
  let versions = state.versions;
  if (!versions || refreshDue(versions, c.secretRefreshMs, Date.now())) {
    state.reading ??= readVersions(arn, c.secretRotationWindowMs).finally(() => (state.reading = undefined));
    try {
      versions = state.versions = await state.reading;
    } catch (e) {
      if (!versions) throw e;
      logger.warn('secret re-read failed; the versions read before stay in use', { secret: which, error: errorField(e) });
      // Try again after another interval, not on every request while Secrets Manager is away.
      versions.readMs = Date.now();
    }
  }
  return acceptedValues(versions, c.secretRotationWindowMs, Date.now());
}

/**
 * A key for one purpose, derived from the service key (SERVER_SECRET): one secret serves
 * idempotency records, request fingerprints, sealed replies and cursors, and no two of those
 * uses share a key. The service key is read once per process: every key it derives must stay
 * the same for the life of the records and cursors it seals (docs/operating/security.md "Rotate a deployment secret").
 */
export function serviceKey(purpose: KeyPurpose): Promise<Buffer> {
  const hit = derived.get(purpose);
  if (hit) return hit;
  const p = serverKey().then((secret) => deriveKey(secret, purpose));
  p.catch(() => derived.delete(purpose));
  derived.set(purpose, p);
  return p;
}

function serverKey(): Promise<string> {
  const hit = serverSecret.get('server');
  if (hit) return hit;
  const c = config();
  const clear = c.serverSecret;
  const arn = c.serverSecretArn;
  const p = clear
    ? Promise.resolve(clear)
    : arn
      ? readVersion(arn, 'AWSCURRENT').then((v) => v!.value)
      : Promise.reject(new Error('no server secret configured (set SERVER_SECRET)'));
  // A failed read is not cached: the next request tries again.
  p.catch(() => serverSecret.delete('server'));
  serverSecret.set('server', p);
  return p;
}

/** The current version and, while its window is open, the previous one. */
async function readVersions(arn: string, windowMs: number): Promise<SecretVersions> {
  const current = (await readVersion(arn, 'AWSCURRENT'))!;
  const readMs = Date.now();
  // Past the window the previous value is refused anyway: no need to read it.
  const previous = previousStillAccepted(current, windowMs, readMs) ? await readVersion(arn, 'AWSPREVIOUS') : undefined;
  return { current, previous, readMs };
}

/** One staged version; AWSPREVIOUS does not exist before the first rotation (undefined). */
async function readVersion(arn: string, stage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<SecretVersion | undefined> {
  // Loaded on first use, so functions that never read a secret never load the SDK client.
  const { SecretsManagerClient, GetSecretValueCommand, ResourceNotFoundException } = await import('@aws-sdk/client-secrets-manager');
  client ??= traced(new SecretsManagerClient({}));
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: stage }));
    if (!out.SecretString) throw new Error(`secret ${arn} (${stage}) has no string value`);
    return { value: out.SecretString, createdMs: out.CreatedDate?.getTime() ?? 0 };
  } catch (e) {
    if (stage === 'AWSPREVIOUS' && e instanceof ResourceNotFoundException) return undefined;
    throw e;
  }
}
let client: import('@aws-sdk/client-secrets-manager').SecretsManagerClient | undefined;

export function resetSecrets(): void {
  groupState.clear();
  serverSecret.clear();
  derived.clear();
  client = undefined;
}
