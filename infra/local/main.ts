/**
 * npm start: the whole interface on this machine (contract §1). DynamoDB Local keeps its data
 * under DATA_DIR, so everything created survives a restart. Its JVM boots while the stage's
 * modules load: each takes seconds, and neither needs the other until the table is checked.
 */
import { mkdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { handlersDone } from '../../shared/http/create-handler';
import { parseOrgLimits } from '../../shared/domain/org-limits';
import { parseRetrySchedule } from '../../shared/domain/retry-schedule';
import { parseHostAllowList } from '../../shared/domain/upstream-hosts';
import { JavaMissingError, startDynamoLocal, type DynamoLocal } from './dynamodb-local';
import { localSecrets, SECRET_ENV, type LocalSecrets, type SecretName } from './secrets';

async function main() {
  const env = process.env;
  // An invalid list or limit stops the start here, naming it, before DynamoDB Local is started.
  parseHostAllowList(env.UPSTREAM_ALLOWED_HOSTS);
  parseRetrySchedule(env.HOOK_RETRY_SECONDS);
  parseOrgLimits(env);
  // On Node 20 the SDK warns that its 2027 releases need Node 22; the lockfile pins releases that run on 20.
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // No CloudWatch reads the local stage's output: its business metrics (EMF lines) would be noise.
  env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const dataDir = resolve(env.DATA_DIR || '.data');
  const host = env.HOST || '127.0.0.1';
  const port = Number(env.PORT || 8080);
  const tableName = env.TABLE_NAME || 'gw-management';
  mkdirSync(dataDir, { recursive: true });

  // Settled either way before it is awaited, so a failed start waits for the modules instead of crashing beside them.
  const dynamoStarting = env.DYNAMODB_ENDPOINT
    ? undefined
    : startDynamoLocal(join(dataDir, 'dynamodb')).then(
        (started) => ({ started }),
        (error: unknown) => ({ error }),
      );
  const [
    { resetConfig },
    { WEBHOOK_LIMITS },
    { ddb },
    { saveMissingPolicyCounts },
    { saveMissingOrganisationIndexes },
    { awaitLocalCommits },
    { startChangeFeed },
    { ensureTable },
    { createLocalServer },
  ] = await Promise.all([
    import('../../shared/config'),
    import('../../shared/limits'),
    import('../../shared/store/db/client'),
    import('../../shared/store/policy-counts'),
    import('../../shared/store/organisations'),
    import('./commit-wait'),
    import('./change-feed'),
    import('./ensure-table'),
    import('./server'),
  ]).catch(async (e: unknown) => {
    // A module that fails to load stops the JVM that started beside it.
    const result = await dynamoStarting;
    if (result && 'started' in result) await result.started.stop();
    throw e;
  });
  let dynamo: DynamoLocal | undefined;
  if (dynamoStarting) {
    const result = await dynamoStarting;
    if ('error' in result) {
      if (result.error instanceof JavaMissingError) {
        console.error(result.error.message);
        process.exit(1);
      }
      throw result.error;
    }
    dynamo = result.started;
  }
  const endpoint = dynamo ? dynamo.endpoint : env.DYNAMODB_ENDPOINT!;
  const secrets = localSecrets(dataDir, env);
  Object.assign(env, {
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: tableName,
    GW_SECRET: secrets.gwSecret.value,
    ADMIN_SECRET: secrets.adminSecret.value,
    SERVER_SECRET: secrets.serverSecret.value,
  });
  resetConfig();
  // No transactional write is answered before DynamoDB Local has committed it (commit-wait.ts).
  awaitLocalCommits(ddb());
  const table = await ensureTable(endpoint, tableName);
  // Policies stored by a release that kept no policy counts are counted once (docs/reference/lists.md).
  const counted = await saveMissingPolicyCounts();
  if (counted.policies) console.log(`counted ${counted.policies} policies stored before policy counts were kept (${counted.organisations} organisations)`);
  // Organisations stored by a release without the installation's list are listed once (docs/reference/lists.md).
  const listed = await saveMissingOrganisationIndexes();
  if (listed) console.log(`listed ${listed} organisations stored before GET /admin/organisations existed`);

  const server = createLocalServer();
  // Webhook deliveries, the audit trail, usage figures, offboarding and imports (contract §9, §11, §12, §14):
  // the table's stream, read from where the last start stopped.
  const pollMs = Number(env.CHANGE_FEED_POLL_MS || 250);
  if (!Number.isInteger(pollMs) || pollMs < 10) {
    console.error(`CHANGE_FEED_POLL_MS: "${env.CHANGE_FEED_POLL_MS}" is not a whole number of milliseconds (10 or more)`);
    process.exit(1);
  }
  const feed = startChangeFeed({
    endpoint,
    tableName,
    checkpointFile: join(dataDir, 'change-feed.json'),
    auditCheckpointFile: join(dataDir, 'audit-feed.json'),
    usageCheckpointFile: join(dataDir, 'usage-feed.json'),
    offboardingCheckpointFile: join(dataDir, 'offboarding-feed.json'),
    importCheckpointFile: join(dataDir, 'import-feed.json'),
    pollMs,
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    server.close();
    server.closeAllConnections();
    // A handler that answered 503 when its time ran out may still be writing: its storage stays up until it ends.
    await handlersDone();
    await feed.stop();
    await dynamo?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  dynamo?.process.on('exit', (code) => {
    if (!stopping) {
      console.error(`DynamoDB Local exited (${code}); stopping`);
      server.close();
      process.exit(1);
    }
  });

  server.listen(port, host, () => {
    const url = `http://${host}:${port}`;
    console.log(
      [
        `Gateway management service listening on ${url}`,
        `  storage      ${dynamo ? `DynamoDB Local (${join(dataDir, 'dynamodb')})` : endpoint}, table ${tableName} (${table})`,
        `  gateway      X-Gw-Authorization: ${shown(secrets, 'gwSecret')}`,
        `  admin        Admin-Auth: ${shown(secrets, 'adminSecret')}`,
        `  service key  ${shown(secrets, 'serverSecret', false)}`,
        `  dashboard    Authorization: Bearer <access key from POST /admin/users>`,
        `  webhooks     routed from the table's stream every ${pollMs} ms (position kept in ` +
          `${join(dataDir, 'change-feed.json')}), attempted from a fair queue, ` +
          `${WEBHOOK_LIMITS.attemptsInFlightPerOrg} in flight per organisation`,
        `  audit trail  written from the table's stream (position kept in ${join(dataDir, 'audit-feed.json')})`,
        `  docs         ${url}/openapi.json   health ${url}/hello`,
        `  console      ${url}/console/ (sign in with a dashboard access key; built on its first request when stale)`,
      ].join('\n'),
    );
  });
}

/**
 * A secret is printed only on the start that generated it (the first, for a new DATA_DIR);
 * otherwise the banner says where it comes from, so logs of later starts hold no secret. The
 * service key is never printed: no client needs it.
 */
function shown(secrets: LocalSecrets, name: SecretName, print = true): string {
  const s = secrets[name];
  if (s.source === 'environment') return `(from ${SECRET_ENV[name]})`;
  if (s.source === 'kept') return `(kept in ${secrets.file}, ${name})`;
  return print ? `${s.value}   (generated now, kept in ${secrets.file})` : `(generated now, kept in ${secrets.file}, ${name})`;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
