/**
 * The cloud stage: one table, one HTTP API, one Lambda function per built route of the table.
 * Everything here loops over shared/routes.ts; handler files are named by string, never loaded.
 */
import { CfnElement, CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, RuntimeFamily } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { needsServiceKey } from '../shared/route-def';
import { parseHostAllowList } from '../shared/domain/upstream-hosts';
import { builtRoutes } from '../shared/routes';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../shared/store/table';
import { copyNodeModulesCommands } from './node-modules';
import { ESBUILD_TARGET, LAMBDA_RUNTIME } from './runtime';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Table actions a read route may use: no Scan anywhere, no writes. */
export const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
export const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

export class ManagementStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    const table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: INDEXES.map((i) => ({
        indexName: i.name,
        partitionKey: { name: i.partitionKey, type: AttributeType.STRING },
        sortKey: { name: i.sortKey, type: AttributeType.STRING },
      })),
    });

    const secretOptions = { generateSecretString: { passwordLength: 48, excludePunctuation: true } };
    const gwSecret = new Secret(this, 'GatewaySecret', { ...secretOptions, description: 'X-Gw-Authorization value' });
    const adminSecret = new Secret(this, 'AdminSecret', { ...secretOptions, description: 'Admin-Auth value' });
    // The service key: keys idempotency records and fingerprints, seals stored replies and cursors.
    const serverSecret = new Secret(this, 'ServerSecret', {
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      description: 'Service key (HMAC and sealing of stored idempotency records and of cursors)',
    });

    const bundling: NodejsFunctionProps['bundling'] = {
      format: OutputFormat.ESM,
      minify: true,
      target: ESBUILD_TARGET,
      mainFields: ['module', 'main'],
      // The SDK goes into the bundle: the tested version, minified and tree-shaken (faster cold
      // starts than the runtime's full copy).
      bundleAwsSDK: true,
      // Some SDK dependencies still call require(); ESM bundles need it defined.
      banner: "import { createRequire } from 'module';const require = createRequire(import.meta.url);",
    };
    // Packages that read their own files at run time stay outside the bundle, copied beside it from
    // the lockfile's node_modules (no `npm ci` in the bundle folder: synth works offline).
    const withNodeModules = (nodeModules: string[]): NodejsFunctionProps['bundling'] => ({
      ...bundling,
      externalModules: nodeModules,
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        afterBundling: (inputDir, outputDir) => copyNodeModulesCommands(ROOT, nodeModules, inputDir, outputDir),
      },
    });
    const fn = (name: string, entry: string, environment: Record<string, string>, nodeModules?: string[]) =>
      new NodejsFunction(this, `Fn${name[0]!.toUpperCase()}${name.slice(1)}`, {
        entry: join(ROOT, entry),
        handler: 'handler',
        runtime: new Runtime(LAMBDA_RUNTIME, RuntimeFamily.NODEJS, { supportsInlineCode: true }),
        architecture: Architecture.ARM_64,
        memorySize: 1024,
        timeout: Duration.seconds(29),
        projectRoot: ROOT,
        depsLockFilePath: join(ROOT, 'package-lock.json'),
        bundling: nodeModules?.length ? withNodeModules(nodeModules) : bundling,
        environment: { TABLE_NAME: table.tableName, ROUTE_NAME: name, ...environment },
        logGroup: new LogGroup(this, `Logs${name}`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
      });

    const tableArns = [table.tableArn, `${table.tableArn}/index/*`];
    const fallback = fn('fallback', 'functions/system/fallback.ts', {});
    const api = new HttpApi(this, 'Api', {
      description: 'Gateway management service',
      createDefaultStage: false,
      // Unknown paths and methods: 404/405 in the envelope of the path's prefix.
      defaultIntegration: new HttpLambdaIntegration('Fallback', fallback),
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.RETAIN });
    const stage = new HttpStage(this, 'Stage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 500, burstLimit: 1000 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // The route template, never the raw path: paths hold clear gateway keys
        // (GET /gw/keys/<key>), and these logs outlive the stack.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    // README "Configuration": `cdk deploy -c upstreamAllowedHosts=...`; checked here, so a typo
    // fails the synth instead of every dashboard request.
    const upstreamAllowedHosts = this.node.tryGetContext('upstreamAllowedHosts') as string | undefined;
    parseHostAllowList(upstreamAllowedHosts);

    for (const r of builtRoutes) {
      const environment: Record<string, string> = {};
      if (r.group === 'dashboard' && upstreamAllowedHosts) environment.UPSTREAM_ALLOWED_HOSTS = upstreamAllowedHosts;
      if (r.group === 'gateway') environment.GW_SECRET_ARN = gwSecret.secretArn;
      if (r.group === 'admin') environment.ADMIN_SECRET_ARN = adminSecret.secretArn;
      if (needsServiceKey(r)) environment.SERVER_SECRET_ARN = serverSecret.secretArn;
      const f = fn(r.name, r.entry, environment, r.nodeModules);
      f.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: r.access === 'read' ? READ_ACTIONS : [...READ_ACTIONS, ...WRITE_ACTIONS],
          resources: tableArns,
        }),
      );
      if (r.group === 'gateway') gwSecret.grantRead(f);
      if (r.group === 'admin') adminSecret.grantRead(f);
      if (needsServiceKey(r)) serverSecret.grantRead(f);
      api.addRoutes({
        path: r.path,
        methods: [r.method as HttpMethod],
        integration: new HttpLambdaIntegration(`Int${r.name}`, f),
      });
    }

    // cdk-nag (AwsSolutions) findings that are deliberate; test/infra/nag.test.ts fails on any other.
    const acknowledge = (id: string, reason: string) => Validations.of(this).acknowledge({ id, reason });
    acknowledge('AwsSolutions-APIG4', 'Every route checks its credential group inside its function (Middy), where the envelope of each group is produced; an API Gateway authorizer would add a second round trip per request.');
    acknowledge('AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', 'The AWS-managed basic execution policy grants only CloudWatch Logs writes.');
    acknowledge(`AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(table.node.defaultChild as CfnElement)}.Arn>/index/*]`, "Queries use the table's own indexes; the wildcard covers only this table's indexes.");
    acknowledge('AwsSolutions-SMG4', 'The two deployment secrets are shared with gateway and admin operators, and the service key keys stored idempotency records and outstanding cursors; rotating one is a coordinated change (put a new value; functions read it on their next cold start).');

    new CfnOutput(this, 'ApiUrl', { value: stage.url });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'GatewaySecretArn', { value: gwSecret.secretArn });
    new CfnOutput(this, 'AdminSecretArn', { value: adminSecret.secretArn });
    new CfnOutput(this, 'ServerSecretArn', { value: serverSecret.secretArn });
  }
}
