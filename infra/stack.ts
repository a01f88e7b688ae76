/**
 * The cloud stage: one table, one HTTP API, one Lambda function per built route of the table.
 * Everything here loops over shared/routes.ts; handler files are named by string, never loaded.
 * One stack per stage (infra/config.ts): names, protection and capacity come from its settings.
 */
import { DATA_PLANE_LISTEN_PATHS } from '../shared/config';
import { CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, type HttpMethod, HttpStage, LogGroupLogDestination, type HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, StreamViewType, TableV2, type CfnGlobalTable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Function as LambdaFunction, Runtime, RuntimeFamily, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { closedRoutes } from '../shared/http/route-match';
import { ORG_LIMITS } from '../shared/limits';
import { needsServiceKey, ORG_LIMIT_TABLE_ACCESS, orgLimitOf, type RouteDef, type TableAction } from '../shared/route-def';
import { routeGroups, routeList, routes as routeTable } from '../shared/routes';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../shared/store/db/table';
import { functionCode } from './bundling';
import { LAMBDA_RUNTIME } from './runtime';
import { stageNames, type StageConfig } from './config';
import { Capacity } from './constructs/capacity';
import { ConsoleHosting } from './constructs/console-hosting';
import { Edge } from './constructs/edge';
import { FunctionRole } from './constructs/function-role';
import { Monitoring } from './constructs/monitoring';
import { HomedLambdaIntegration, RouteFunctions } from './constructs/route-functions';
import { acknowledgeFindings } from './constructs/nag-acknowledgements';
import { StageKey } from './constructs/stage-key';
import { grantTableActions } from './constructs/table-grants';
import { AuthorizerDemo, DEMO_API_ID } from './constructs/gateway-authorizer';
import { DataPlane, RECONCILER_TABLE_ACTIONS } from './constructs/data-plane';
import { accessLogFormat } from './constructs/access-log';
import { ATTEMPT_TABLE_ACTIONS, ROUTING_TABLE_ACTIONS, WebhookDelivery } from './constructs/webhook-delivery';
import { AUDIT_TABLE_ACTIONS, AuditTrail } from './constructs/audit-trail';
import { USAGE_TABLE_ACTIONS, UsageCount } from './constructs/usage-count';
import { OFFBOARDING_TABLE_ACTIONS, Offboarding } from './constructs/offboarding';
import { IMPORT_WORKER_TABLE_ACTIONS, OrganisationImport } from './constructs/organisation-import';

export interface ManagementStackProps extends StackProps {
  config: StageConfig;
}

export class ManagementStack extends Stack {
  /** Alarms, topic and dashboard (a nested stack). */
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: ManagementStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = stageNames(config.stage);
    // prod keeps its data when the stack or a resource is deleted; dev can be destroyed whole.
    const keep = config.protected ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    // cmk=on: the stage's own key for the table, the queues and the log groups; off, AWS's keys.
    const key = config.cmk
      ? new StageKey(this, 'EncryptionKey', { alias: names.keyAlias, logGroupPrefix: `/${names.prefix}/`, removalPolicy: keep }).key
      : undefined;

    const table = new TableV2(this, 'Table', {
      tableName: names.table,
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: config.protected },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // The change feed of webhook delivery (contract §11), as shared/store/db/table.ts defines it.
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      deletionProtection: config.protected,
      removalPolicy: keep,
      globalSecondaryIndexes: INDEXES.map((i) => ({
        indexName: i.name,
        partitionKey: { name: i.partitionKey, type: AttributeType.STRING },
        sortKey: { name: i.sortKey, type: AttributeType.STRING },
      })),
    });
    if (key) {
      // TableV2's own customer-managed-key option needs a stack bound to a region (it maps keys
      // per replica region); this stack is region-agnostic, and its one replica is its own region.
      const cfnTable = table.node.defaultChild as CfnGlobalTable;
      cfnTable.addPropertyOverride('SSESpecification', { SSEEnabled: true, SSEType: 'KMS' });
      cfnTable.addPropertyOverride('Replicas.0.SSESpecification', { KMSMasterKeyId: key.keyArn });
    }

    const secretOptions = { generateSecretString: { passwordLength: 48, excludePunctuation: true }, removalPolicy: keep };
    const gwSecret = new Secret(this, 'GatewaySecret', { ...secretOptions, secretName: names.secret('gateway'), description: 'X-Gw-Authorization value' });
    const adminSecret = new Secret(this, 'AdminSecret', { ...secretOptions, secretName: names.secret('admin'), description: 'Admin-Auth value' });
    // The service key: keys idempotency records and fingerprints, seals stored replies and cursors.
    const serverSecret = new Secret(this, 'ServerSecret', {
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: keep,
      secretName: names.secret('service-key'),
      description: 'Service key (HMAC and sealing of stored idempotency records and of cursors)',
    });
    // edge=on: CloudFront sends this value as X-Origin-Verify and every HTTP function requires it
    // (shared/http/origin-verify.ts). Both get it by one dynamic reference, resolved when
    // CloudFormation updates them; naming a version (edgeSecretVersion) changes both at once.
    // It guards no data, so it goes with the option in every stage.
    const originSecret = config.edge
      ? new Secret(this, 'OriginVerifySecret', {
          ...secretOptions,
          removalPolicy: RemovalPolicy.DESTROY,
          secretName: names.secret('origin-verify'),
          description: 'X-Origin-Verify value: CloudFront sends it, the functions require it',
        })
      : undefined;
    const originValue = originSecret && SecretValue.secretsManager(originSecret.secretArn, { versionId: config.edge?.secretVersion }).unsafeUnwrap();
    const edgeEnvironment: Record<string, string> = originValue ? { ORIGIN_VERIFY: originValue } : {};

    // One log group per folder of functions/ (a resource): Lambda writes each function's streams
    // under its own name, and a log group per function would pass CloudFormation's 500 resources.
    const logGroups = new Map<string, LogGroup>();
    const logGroupOf = (entry: string) => {
      const folder = entry.split('/')[1]!;
      let group = logGroups.get(folder);
      if (!group) {
        group = new LogGroup(this, `Logs${folder[0]!.toUpperCase()}${folder.slice(1)}`, {
          logGroupName: names.functionLogs(folder),
          retention: RetentionDays.ONE_MONTH,
          removalPolicy: keep,
          encryptionKey: key,
        });
        logGroups.set(folder, group);
      }
      return group;
    };
    const fn = (
      name: string,
      entry: string,
      environment: Record<string, string>,
      nodeModules?: string[],
      timeout = Duration.seconds(29),
      scope: Construct = this,
    ) =>
      new LambdaFunction(scope, `Fn${name[0]!.toUpperCase()}${name.slice(1)}`, {
        role: new FunctionRole(scope, `Role${name[0]!.toUpperCase()}${name.slice(1)}`),
        // Packages that read their own files at run time (nodeModules) stay outside the bundle,
        // copied beside it from the lockfile's node_modules (no `npm ci`: synth works offline).
        code: functionCode(entry, nodeModules),
        handler: 'index.handler',
        runtime: new Runtime(LAMBDA_RUNTIME, RuntimeFamily.NODEJS, { supportsInlineCode: true }),
        architecture: Architecture.ARM_64,
        memorySize: 1024,
        timeout,
        environment: { TABLE_NAME: table.tableName, ROUTE_NAME: name, ...environment },
        // X-Ray segments per invocation (cold start, duration, errors); HTTP APIs have no X-Ray.
        tracing: Tracing.ACTIVE,
        logGroup: logGroupOf(entry),
      });

    const fallback = fn('fallback', 'functions/system/fallback.ts', edgeEnvironment);
    // One invoke permission for every route that answers 404/405 (scoped to the API, not per route).
    const fallbackIntegration = new HttpLambdaIntegration('Fallback', fallback, { scopePermissionToRoute: false });
    const api = new HttpApi(this, 'Api', {
      apiName: names.stack,
      description: `Gateway management service (${config.stage})`,
      createDefaultStage: false,
      // Unknown paths and methods: 404/405 in the envelope of the path's prefix.
      defaultIntegration: fallbackIntegration,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: names.accessLogs,
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: keep,
      encryptionKey: key,
    });
    const stage = new HttpStage(this, 'Stage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.throttle.other.rate, burstLimit: config.throttle.other.burst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: accessLogFormat(),
      },
    });

    // Each route group's functions in a nested stack of their own (infra/constructs/route-functions.ts).
    const homes = new Map<string, RouteFunctions>();
    for (const [group, defs] of Object.entries(routeGroups)) {
      const home = new RouteFunctions(this, `Routes${group[0]!.toUpperCase()}${group.slice(1)}`, { group, stackName: names.stack });
      for (const r of Object.values(defs) as RouteDef[]) homes.set(r.name, home);
    }
    const functions = new Map<string, LambdaFunction>();
    const routes = new Map<string, HttpRoute>();
    for (const r of routeList) {
      const home = homes.get(r.name)!;
      const environment: Record<string, string> = { ...edgeEnvironment };
      // A route that counts by the viewer's address believes a gateway's word for it only beside the gateway credential.
      const readsGwSecret = r.group === 'gateway' || r.viewerAddress === true;
      if (readsGwSecret) environment.GW_SECRET_ARN = gwSecret.secretArn;
      if (r.group === 'admin') environment.ADMIN_SECRET_ARN = adminSecret.secretArn;
      if (readsGwSecret || r.group === 'admin') {
        environment.SECRET_REFRESH_SECONDS = String(config.secrets.refreshSeconds);
        environment.SECRET_ROTATION_WINDOW_SECONDS = String(config.secrets.rotationWindowSeconds);
      }
      if (needsServiceKey(r)) environment.SERVER_SECRET_ARN = serverSecret.secretArn;
      if (r.group === 'dashboard' && config.upstreamAllowedHosts) environment.UPSTREAM_ALLOWED_HOSTS = config.upstreamAllowedHosts;
      const limit = orgLimitOf(r);
      if (limit) environment[ORG_LIMITS[limit].env] = String(config.orgLimits[limit]);
      // The managed data plane serves a host from one HTTP API: a listen path past its route quota is refused at write time.
      if (config.dataPlane && r.tableEntities?.includes('host_claims')) environment.DATA_PLANE_LISTEN_PATHS_MAX = String(DATA_PLANE_LISTEN_PATHS.default);
      const f = fn(r.name, r.entry, environment, r.nodeModules, undefined, home);
      // A dashboard read writes only its organisation limit's counter, and may write nothing else.
      const writesOnly = limit && r.access === 'read' ? [ORG_LIMIT_TABLE_ACCESS.entity] : undefined;
      grantTableActions(f, table, { actions: r.tableActions ?? [], entities: r.tableEntities ?? [], key, writesOnly });
      if (readsGwSecret) gwSecret.grantRead(f);
      if (r.group === 'admin') adminSecret.grantRead(f);
      if (needsServiceKey(r)) serverSecret.grantRead(f);
      const [route] = api.addRoutes({
        path: r.path,
        methods: [r.method as HttpMethod],
        integration: new HomedLambdaIntegration(`Int${r.name}`, f, home),
      });
      functions.set(r.name, f);
      routes.set(r.name, route!);
    }
    // API Gateway matches method and path together: a method a fixed path lacks would reach a less
    // specific sibling that has it (GET /api/apis/oas would read the API "oas"). Those go where
    // $default goes, a 405 (shared/http/fallback.ts).
    for (const r of closedRoutes(routeList)) {
      const [route] = api.addRoutes({ path: r.path, methods: [r.method as HttpMethod], integration: fallbackIntegration });
      routes.set(`closed ${r.method} ${r.path}`, route!);
    }

    // The demo's functions (-c demo=on) get the same cdk-nag acknowledgements as the routes' (their grants: the check's).
    const demoFunctions: LambdaFunction[] = [];
    if (config.demo) {
      new AuthorizerDemo(this, 'Demo', {
        api,
        table,
        encryptionKey: key,
        apiId: DEMO_API_ID,
        makeFunction: (name, entry, environment) => {
          const f = fn(name, entry, environment);
          demoFunctions.push(f);
          return f;
        },
      });
    }

    const delivery = new WebhookDelivery(this, 'WebhookDelivery', {
      table,
      serviceKey: serverSecret,
      encryptionKey: key,
      removalPolicy: keep,
      queueNames: { attempts: names.queue('hook-attempts'), deadLetter: names.queue('hook-dead-letters') },
      // HOOK_RETRY_SECONDS and HOOK_SECRET_ROTATION_SECONDS are left to their defaults
      // (docs/reference/configuration.md); ALLOW_PRIVATE_TARGETS is never set here.
      makeFunction: (name, entry, environment, timeout) => fn(name, entry, environment, undefined, timeout),
    });

    const audit = new AuditTrail(this, 'AuditTrail', {
      table,
      encryptionKey: key,
      deadLetterQueue: delivery.deadLetterQueue,
      retentionDays: config.auditRetentionDays,
      makeFunction: (name, entry, environment, timeout) => fn(name, entry, environment, undefined, timeout),
    });

    const usage = new UsageCount(this, 'UsageCount', {
      table,
      encryptionKey: key,
      deadLetterQueue: delivery.deadLetterQueue,
      makeFunction: (name, entry, environment, timeout) => fn(name, entry, environment, undefined, timeout),
    });

    const offboarding = new Offboarding(this, 'Offboarding', {
      table,
      encryptionKey: key,
      deadLetterQueue: delivery.deadLetterQueue,
      makeFunction: (name, entry, environment, timeout) => fn(name, entry, environment, undefined, timeout),
    });

    const imports = new OrganisationImport(this, 'OrganisationImport', {
      table,
      encryptionKey: key,
      deadLetterQueue: delivery.deadLetterQueue,
      makeFunction: (name, entry, environment, timeout) => fn(name, entry, environment, undefined, timeout),
    });

    const edge =
      config.edge && originValue
        ? new Edge(this, 'Edge', {
            api,
            originVerifyValue: originValue,
            rateLimit: config.edge.rateLimit,
            webAclName: names.webAcl,
            comment: `${names.stack} (gateway management API)`,
          })
        : undefined;

    new Capacity(this, 'Capacity', { config, stage, routes, functions });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      api,
      stage,
      table,
      functions: new Map([
        ...functions,
        ['fallback', fallback],
        ['hookRouting', delivery.routingFunction],
        ['hookAttempts', delivery.attemptFunction],
        ['auditTrail', audit.consumer],
        ['usageCount', usage.consumer],
        ['offboarding', offboarding.worker],
        ['import', imports.worker],
      ]),
      deadLetterQueues: [delivery.deadLetterQueue],
    });
    // The web console: its own CloudFront distribution, with the edge's web ACL and origin secret when edge=on.
    const consoleHosting = new ConsoleHosting(this, 'Console', {
      api,
      prefix: names.prefix,
      logRemoval: keep,
      edge: edge && originValue ? { webAclArn: edge.webAcl.attrArn, originVerifyValue: originValue } : undefined,
    });

    // The data plane's functions (-c dataPlane=on) get the acknowledgements of what they send.
    const dataPlane = config.dataPlane
      ? new DataPlane(this, 'DataPlane', {
          table,
          encryptionKey: key,
          apiName: `${names.stack}-data-plane`,
          removalPolicy: keep,
          // A domain carrying its organisation's developer portal sends the portal's paths to the console's origin.
          portalOrigin: `https://${consoleHosting.distribution.distributionDomainName}`,
          makeFunction: (name, entry, environment, timeout) => fn(name, entry, environment, undefined, timeout),
        })
      : undefined;

    acknowledgeFindings({
      table,
      secrets: { shared: [gwSecret, adminSecret], serviceKey: serverSecret },
      functions: [
        ...routeList.map((r): [LambdaFunction, readonly TableAction[]] => [functions.get(r.name)!, r.tableActions ?? []]),
        [fallback, []],
        [delivery.routingFunction, ROUTING_TABLE_ACTIONS],
        [delivery.attemptFunction, ATTEMPT_TABLE_ACTIONS],
        [audit.consumer, AUDIT_TABLE_ACTIONS],
        [usage.consumer, USAGE_TABLE_ACTIONS],
        [offboarding.worker, OFFBOARDING_TABLE_ACTIONS],
        [imports.worker, IMPORT_WORKER_TABLE_ACTIONS],
        ...demoFunctions.map((f): [LambdaFunction, readonly TableAction[]] => [f, routeTable.sessionsCheck.tableActions ?? []]),
        ...(dataPlane
          ? ([
              [dataPlane.authorizerFunction, routeTable.sessionsExtAuthz.tableActions],
              [dataPlane.reconciler, RECONCILER_TABLE_ACTIONS],
            ] as Array<[LambdaFunction, readonly TableAction[]]>)
          : []),
      ],
      api,
      routes: [...routes.values()],
      queueSenders: key ? [delivery.routingFunction, delivery.attemptFunction, audit.consumer, usage.consumer, offboarding.worker, imports.worker] : [],
      edge: edge && originSecret ? { distribution: edge.distribution, originSecret } : undefined,
      console: consoleHosting,
    });

    new CfnOutput(this, 'ApiUrl', {
      value: stage.url,
      description: edge ? "The HTTP API's own address: it answers only requests that came through EdgeUrl" : undefined,
    });
    if (edge)
      new CfnOutput(this, 'EdgeUrl', {
        value: `https://${edge.distribution.distributionDomainName}`,
        description: 'The service, through CloudFront and its web ACL',
      });
    new CfnOutput(this, 'ConsoleUrl', {
      value: `https://${consoleHosting.distribution.distributionDomainName}/console/`,
      description: 'The web console (sign in with a dashboard access key)',
    });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'GatewaySecretArn', { value: gwSecret.secretArn });
    new CfnOutput(this, 'AdminSecretArn', { value: adminSecret.secretArn });
    new CfnOutput(this, 'ServerSecretArn', { value: serverSecret.secretArn });
  }
}
