import { parseRetrySchedule } from './domain/retry-schedule';
import { parseHostAllowList, type HostAllowList } from './domain/upstream-hosts';

/** Environment, parsed once per process (Lambda cold start or local stage). */
export interface Config {
  tableName: string;
  /** Another DynamoDB (DynamoDB Local) instead of the AWS endpoint. */
  dynamoEndpoint?: string;
  region: string;
  /** Clear secrets (local stage, tests). */
  gwSecret?: string;
  adminSecret?: string;
  /** The service key: keys idempotency fingerprints, seals stored replies and cursors. */
  serverSecret?: string;
  /** Secrets Manager ARNs (cloud); read once per cold start (the service key on first use). */
  gwSecretArn?: string;
  adminSecretArn?: string;
  serverSecretArn?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * How long a warm process may reuse a dashboard credential or a key's session in the check
   * (milliseconds; 0 turns the caches off). Writes in the same process clear them at once.
   */
  cacheMs: number;
  /**
   * UPSTREAM_ALLOWED_HOSTS: the hosts a dashboard import or streams patch may name as upstream;
   * undefined = any (the default). An invalid entry throws (npm start checks it first, the
   * cloud synth too), so a typo never silently widens or narrows the list.
   */
  upstreamAllowedHosts?: HostAllowList;
  /** HOOK_RETRY_SECONDS: delays before each retry of a failed webhook delivery (contract §11). */
  hookRetrySeconds: number[];
  /** HOOK_RETRY_QUEUE_URL (cloud): the SQS queue that holds scheduled retries; unset locally. */
  hookRetryQueueUrl?: string;
}

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  const env = process.env;
  const level = env.LOG_LEVEL ?? 'info';
  cached = {
    tableName: env.TABLE_NAME || 'gw-management',
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    gwSecret: env.GW_SECRET || undefined,
    adminSecret: env.ADMIN_SECRET || undefined,
    serverSecret: env.SERVER_SECRET || undefined,
    gwSecretArn: env.GW_SECRET_ARN || undefined,
    adminSecretArn: env.ADMIN_SECRET_ARN || undefined,
    serverSecretArn: env.SERVER_SECRET_ARN || undefined,
    logLevel: (['debug', 'info', 'warn', 'error'] as const).find((l) => l === level) ?? 'info',
    cacheMs: cacheMs(env.CACHE_SECONDS),
    upstreamAllowedHosts: parseHostAllowList(env.UPSTREAM_ALLOWED_HOSTS),
    hookRetrySeconds: parseRetrySchedule(env.HOOK_RETRY_SECONDS),
    hookRetryQueueUrl: env.HOOK_RETRY_QUEUE_URL || undefined,
  };
  return cached;
}

/** CACHE_SECONDS: 0..60, default 2; anything else falls back to the default. */
function cacheMs(value: string | undefined): number {
  const seconds = value === undefined || value === '' ? 2 : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 60 ? seconds * 1000 : 2000;
}

/** Tests and the local stage change the environment between runs in one process. */
export function resetConfig(): void {
  cached = undefined;
}
