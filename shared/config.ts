import { parseOrgLimits } from './domain/org-limits';
import { parseRetrySchedule } from './domain/retry-schedule';
import type { OrgLimitClass } from './limits';

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
  /**
   * Secrets Manager ARNs (cloud). The gateway and admin secrets are read on first use and again
   * at most every `secretRefreshMs`; the service key once per process (docs/operating/security.md "Rotate a deployment secret").
   */
  gwSecretArn?: string;
  adminSecretArn?: string;
  serverSecretArn?: string;
  /** SECRET_REFRESH_SECONDS: how often a warm function re-reads its group's secret. */
  secretRefreshMs: number;
  /**
   * SECRET_ROTATION_WINDOW_SECONDS: how long after a new version of a group's secret was created
   * the previous value is still accepted.
   */
  secretRotationWindowMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * How long a warm process may reuse a dashboard credential or a key's session in the check
   * (milliseconds; 0 turns the caches off). Writes in the same process clear them at once.
   */
  cacheMs: number;
  /**
   * UPSTREAM_ALLOWED_HOSTS as set: the hosts a dashboard import or streams patch may name as
   * upstream; undefined = any (the default). Parsed where it is checked
   * (shared/services/upstream-allow-list.ts), so no other function loads the address parser at start.
   */
  upstreamAllowedHosts?: string;
  /** HOOK_RETRY_SECONDS: delays before each retry of a failed webhook delivery (contract §11). */
  hookRetrySeconds: number[];
  /** HOOK_QUEUE_URL (cloud): the SQS fair queue of webhook attempts; unset locally (an in-process queue). */
  hookQueueUrl?: string;
  /**
   * HOOK_SECRET_ROTATION_SECONDS: how long after a signing-secret rotation deliveries carry a
   * second `v1=` signature made with the replaced secret.
   */
  hookSecretRotationMs: number;
  /** ORG_READ_LIMIT, ORG_WRITE_LIMIT, ORG_HOOK_TEST_LIMIT: each organisation's requests per window, by class (docs/reference/limits.md). */
  orgLimits: Record<OrgLimitClass, number>;
  /**
   * ORIGIN_VERIFY (cloud with `-c edge=on`): the value CloudFront sends in X-Origin-Verify; set,
   * every request without it is refused (shared/http/origin-verify.ts). Unset locally.
   */
  originVerify?: string;
  /** AUDIT_RETENTION_DAYS: how long audit entries are kept (1..3650, default 365), then removed by TTL. */
  auditRetentionDays: number;
  /**
   * AUTHORIZER_API_ID, AUTHORIZER_KEY_HEADER (the Lambda authorizer, infra/constructs/gateway-authorizer.ts):
   * the managed API whose keys the authorizer's routes take, and the header holding the key.
   */
  authorizer: { apiId?: string; keyHeader: string };
  /**
   * DATA_PLANE_API_ID, DATA_PLANE_AUTHORIZER_ID, DATA_PLANE_AUTHORIZER_URI, DATA_PLANE_GATEWAY_ID
   * (the reconciler, infra/constructs/data-plane.ts): the data-plane HTTP API it keeps equal to the
   * routing table, the authorizer its keyed routes carry, the authorizer function's invocation URI
   * (for the per-domain APIs' authorizers; unset: owned domains are not served), and the id it
   * reports under. The data plane's authorizer reads DATA_PLANE_API_ID too: a request to any other
   * API is one of a per-domain API. DATA_PLANE_LISTEN_PATHS_MAX (every function, with the data
   * plane on): the listen paths one host may hold, past which a new claim is 422.
   */
  dataPlane: { apiId?: string; authorizerId?: string; authorizerUri?: string; gatewayId: string; listenPathsMax?: number; portalOrigin?: string };
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
    secretRefreshMs: secondsSetting(env.SECRET_REFRESH_SECONDS, SECRET_REFRESH),
    secretRotationWindowMs: secondsSetting(env.SECRET_ROTATION_WINDOW_SECONDS, SECRET_ROTATION_WINDOW),
    logLevel: (['debug', 'info', 'warn', 'error'] as const).find((l) => l === level) ?? 'info',
    cacheMs: cacheMs(env.CACHE_SECONDS),
    upstreamAllowedHosts: env.UPSTREAM_ALLOWED_HOSTS || undefined,
    hookRetrySeconds: parseRetrySchedule(env.HOOK_RETRY_SECONDS),
    hookQueueUrl: env.HOOK_QUEUE_URL || undefined,
    hookSecretRotationMs: secondsSetting(env.HOOK_SECRET_ROTATION_SECONDS, HOOK_SECRET_ROTATION),
    orgLimits: parseOrgLimits(env),
    originVerify: env.ORIGIN_VERIFY || undefined,
    auditRetentionDays: wholeSetting(env.AUDIT_RETENTION_DAYS, AUDIT_RETENTION_DAYS),
    authorizer: { apiId: env.AUTHORIZER_API_ID || undefined, keyHeader: (env.AUTHORIZER_KEY_HEADER || 'authorization').toLowerCase() },
    dataPlane: {
      apiId: env.DATA_PLANE_API_ID || undefined,
      authorizerId: env.DATA_PLANE_AUTHORIZER_ID || undefined,
      authorizerUri: env.DATA_PLANE_AUTHORIZER_URI || undefined,
      ...(env.DATA_PLANE_LISTEN_PATHS_MAX ? { listenPathsMax: wholeSetting(env.DATA_PLANE_LISTEN_PATHS_MAX, DATA_PLANE_LISTEN_PATHS) } : {}),
      gatewayId: env.DATA_PLANE_GATEWAY_ID || 'api-gateway',
      portalOrigin: env.DATA_PLANE_PORTAL_ORIGIN || undefined,
    },
  };
  return cached;
}

/** CACHE_SECONDS: 0..60, default 2; anything else falls back to the default. */
function cacheMs(value: string | undefined): number {
  const seconds = value === undefined || value === '' ? 2 : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 60 ? seconds * 1000 : 2000;
}

/** Defaults and bounds (seconds) of the secret settings; the cloud stage's context checks the same. */
export const SECRET_REFRESH = { default: 300, min: 1, max: 3600 } as const;
export const SECRET_ROTATION_WINDOW = { default: 3600, min: 0, max: 7 * 24 * 3600 } as const;
const HOOK_SECRET_ROTATION = { default: 24 * 3600, min: 0, max: 7 * 24 * 3600 } as const;

export const AUDIT_RETENTION_DAYS = { default: 365, min: 1, max: 3650 } as const;
/** Listen paths per host on the managed data plane: API Gateway's 300 routes per API, two per listen path. */
export const DATA_PLANE_LISTEN_PATHS = { default: 150, min: 1, max: 150 } as const;

/** A whole number of seconds within bounds, in ms; unset, empty or out of bounds: the default. */
function secondsSetting(value: string | undefined, s: { default: number; min: number; max: number }): number {
  return wholeSetting(value, s) * 1000;
}

/** A whole number within bounds; unset, empty or out of bounds: the default. */
function wholeSetting(value: string | undefined, s: { default: number; min: number; max: number }): number {
  const n = value === undefined || value === '' ? s.default : Number(value);
  return Number.isInteger(n) && n >= s.min && n <= s.max ? n : s.default;
}

/** Tests and the local stage change the environment between runs in one process. */
export function resetConfig(): void {
  cached = undefined;
}
