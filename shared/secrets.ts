import { config, type Config } from './config';
import { deriveKey, type KeyPurpose } from './domain/service-keys';

type Which = 'gw' | 'admin' | 'server';

/** Where each secret comes from: its clear value (local stage, tests) or its ARN (cloud). */
const SOURCES: Record<Which, { env: string; clear: (c: Config) => string | undefined; arn: (c: Config) => string | undefined }> = {
  gw: { env: 'GW_SECRET', clear: (c) => c.gwSecret, arn: (c) => c.gwSecretArn },
  admin: { env: 'ADMIN_SECRET', clear: (c) => c.adminSecret, arn: (c) => c.adminSecretArn },
  server: { env: 'SERVER_SECRET', clear: (c) => c.serverSecret, arn: (c) => c.serverSecretArn },
};

const cache = new Map<Which, Promise<string>>();
const derived = new Map<KeyPurpose, Promise<Buffer>>();

/**
 * A secret of the deployment: the clear value from the environment (local stage, tests) or, in
 * the cloud, read from Secrets Manager once per process, on first use. The SDK client is loaded
 * lazily so dashboard functions never pay for it, and a request that needs no secret never
 * waits for one.
 */
export function deploymentSecret(which: Which): Promise<string> {
  const hit = cache.get(which);
  if (hit) return hit;
  const c = config();
  const source = SOURCES[which];
  const clear = source.clear(c);
  const arn = source.arn(c);
  const p = clear
    ? Promise.resolve(clear)
    : arn
      ? readSecret(arn)
      : Promise.reject(new Error(`no ${which} secret configured (set ${source.env})`));
  // A failed read is not cached: the next request tries again.
  p.catch(() => cache.delete(which));
  cache.set(which, p);
  return p;
}

/**
 * A key for one purpose, derived from the service key (SERVER_SECRET): one secret serves
 * idempotency records, request fingerprints, sealed replies and cursors, and no two of those
 * uses share a key.
 */
export function serviceKey(purpose: KeyPurpose): Promise<Buffer> {
  const hit = derived.get(purpose);
  if (hit) return hit;
  const p = deploymentSecret('server').then((secret) => deriveKey(secret, purpose));
  p.catch(() => derived.delete(purpose));
  derived.set(purpose, p);
  return p;
}

async function readSecret(arn: string): Promise<string> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!out.SecretString) throw new Error(`secret ${arn} has no string value`);
  return out.SecretString;
}

export function resetSecrets(): void {
  cache.clear();
  derived.clear();
}
