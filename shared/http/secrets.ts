import { config } from '../config';

const cache = new Map<'gw' | 'admin', Promise<string>>();

/**
 * The deployment secret of a group: the clear value from the environment (local stage, tests) or,
 * in the cloud, read from Secrets Manager once per cold start. The SDK client is loaded lazily so
 * dashboard functions never pay for it.
 */
export function deploymentSecret(which: 'gw' | 'admin'): Promise<string> {
  const hit = cache.get(which);
  if (hit) return hit;
  const c = config();
  const clear = which === 'gw' ? c.gwSecret : c.adminSecret;
  const arn = which === 'gw' ? c.gwSecretArn : c.adminSecretArn;
  const p = clear
    ? Promise.resolve(clear)
    : arn
      ? readSecret(arn)
      : Promise.reject(new Error(`no ${which} secret configured (set ${which === 'gw' ? 'GW_SECRET' : 'ADMIN_SECRET'})`));
  // A failed read is not cached: the next request tries again.
  p.catch(() => cache.delete(which));
  cache.set(which, p);
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
}
