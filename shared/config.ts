/** Environment, parsed once per process (Lambda cold start or local stage). */
export interface Config {
  tableName: string;
  /** Another DynamoDB (DynamoDB Local) instead of the AWS endpoint. */
  dynamoEndpoint?: string;
  region: string;
  /** Clear secrets (local stage, tests). */
  gwSecret?: string;
  adminSecret?: string;
  /** Secrets Manager ARNs (cloud); read once per cold start. */
  gwSecretArn?: string;
  adminSecretArn?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
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
    gwSecretArn: env.GW_SECRET_ARN || undefined,
    adminSecretArn: env.ADMIN_SECRET_ARN || undefined,
    logLevel: (['debug', 'info', 'warn', 'error'] as const).find((l) => l === level) ?? 'info',
  };
  return cached;
}

/** Tests and the local stage change the environment between runs in one process. */
export function resetConfig(): void {
  cached = undefined;
}
