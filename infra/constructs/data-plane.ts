/**
 * `-c dataPlane=on`: the managed data plane (docs/operating/data-plane.md). An HTTP API whose routes
 * and integrations the reconciler keeps equal to the routing table (nothing of them is in this
 * template: CloudFormation would fight the reconciler over them), its Lambda authorizer (the
 * check's decision, for the API whose listen path the matched route is), and the reconciler,
 * run by the table's stream when the routing version moves and every five minutes to repair drift.
 * A keyed request passes through the authorizer and an HTTP_PROXY integration: no other function
 * is in its path, so billed compute does not grow with the upstream's latency.
 */
import { Duration, type RemovalPolicy, Stack, Tags } from 'aws-cdk-lib';
import { CfnAuthorizer, HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as FunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import { DATA_PLANE_KEY_HEADER, dataPlaneAuthorizer } from '../../shared/domain/apigw-domains';
import { routingRoutes } from '../../shared/route-groups/routing';
import { sessionsRoutes } from '../../shared/route-groups/sessions';
import { DATA_PLANE_TAG } from '../data-plane-tag';
import { STREAM_CONSUMERS } from '../stream-consumers';
import { accessLogFormat } from './access-log';
import { grantDataPlaneApis } from './data-plane-grants';
import { grantTableActions } from './table-grants';

type MakeFunction = (name: string, entry: string, environment: Record<string, string>, timeout?: Duration) => IFunction;

/** What the reconciler sends to the table: the routing table's reads and its report. */
export const RECONCILER_TABLE_ACTIONS: readonly TableAction[] = [
  ...new Set([...routingRoutes.routingTable.tableActions, ...routingRoutes.routingGatewayReport.tableActions]),
];

export interface DataPlaneProps {
  table: ITableV2;
  encryptionKey?: IKey;
  apiName: string;
  makeFunction: MakeFunction;
  /** Whether its access logs outlive the stack. */
  removalPolicy: RemovalPolicy;
  /** The console's origin: where a domain carrying its organisation's developer portal sends the portal's paths. */
  portalOrigin?: string;
}

export class DataPlane extends Construct {
  readonly api: HttpApi;
  readonly authorizerFunction: IFunction;
  readonly reconciler: IFunction;

  constructor(scope: Construct, id: string, props: DataPlaneProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    this.api = new HttpApi(this, 'Api', { apiName: props.apiName, createDefaultStage: false });
    Tags.of(this.api).add(DATA_PLANE_TAG.key, DATA_PLANE_TAG.value);
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: props.removalPolicy,
      encryptionKey: props.encryptionKey,
    });
    new HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: accessLogFormat({ authorizerError: '$context.authorizer.error' }),
      },
    });

    // No fixed API: it decides for the API whose listen path the matched route key is, on the host
    // its data-plane API serves (this one: the shared hosts; any other: the domain mapped to it).
    this.authorizerFunction = props.makeFunction('dataPlaneAuthorizer', 'functions/sessions/authorizer.ts', {
      AUTHORIZER_KEY_HEADER: DATA_PLANE_KEY_HEADER,
      DATA_PLANE_API_ID: this.api.apiId,
    });
    // The external authorization's grants: the same check, after the same listen-path lookup.
    const lookup = sessionsRoutes.sessionsExtAuthz;
    grantTableActions(this.authorizerFunction, props.table, { actions: lookup.tableActions, entities: lookup.tableEntities, key: props.encryptionKey });
    const authorizerUri = `arn:aws:apigateway:${region}:lambda:path/2015-03-31/functions/${this.authorizerFunction.functionArn}/invocations`;
    // Made here, not by a route (the routes come later, from the reconciler): the same authorizer the
    // reconciler gives each per-domain API.
    const spec = dataPlaneAuthorizer(authorizerUri);
    const authorizer = new CfnAuthorizer(this, 'Authorizer', {
      apiId: this.api.apiId,
      name: spec.Name,
      authorizerType: spec.AuthorizerType,
      authorizerUri: spec.AuthorizerUri,
      authorizerPayloadFormatVersion: spec.AuthorizerPayloadFormatVersion,
      enableSimpleResponses: spec.EnableSimpleResponses,
      identitySource: spec.IdentitySource,
      authorizerResultTtlInSeconds: spec.AuthorizerResultTtlInSeconds,
    });
    this.authorizerFunction.addPermission('InvokedByDataPlane', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(this).formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: `authorizers/${authorizer.ref}` }),
    });
    // The per-domain APIs' authorizers: their ids are made by the reconciler, after this deploy.
    this.authorizerFunction.addPermission('InvokedByDomainDataPlanes', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(this).formatArn({ service: 'execute-api', resource: '*', resourceName: 'authorizers/*' }),
    });

    this.reconciler = props.makeFunction(
      'dataPlaneReconciler',
      'functions/routing/data-plane-reconcile.ts',
      {
        DATA_PLANE_API_ID: this.api.apiId,
        DATA_PLANE_AUTHORIZER_ID: authorizer.ref,
        DATA_PLANE_AUTHORIZER_URI: authorizerUri,
        DATA_PLANE_GATEWAY_ID: `api-gateway-${props.apiName}`.slice(0, 64),
        ...(props.portalOrigin ? { DATA_PLANE_PORTAL_ORIGIN: props.portalOrigin } : {}),
      },
      Duration.minutes(5),
    );
    grantTableActions(this.reconciler, props.table, {
      actions: RECONCILER_TABLE_ACTIONS,
      entities: [...new Set([...routingRoutes.routingTable.tableEntities, ...routingRoutes.routingGatewayReport.tableEntities])],
      key: props.encryptionKey,
      writesOnly: routingRoutes.routingGatewayReport.tableEntities,
    });
    grantDataPlaneApis(this.reconciler, region);
    this.reconciler.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        retryAttempts: 2,
        filters: STREAM_CONSUMERS.dataPlane.map((p) => FilterCriteria.filter(p)),
      }),
    );
    new Rule(this, 'Repair', { schedule: Schedule.rate(Duration.minutes(5)), targets: [new FunctionTarget(this.reconciler)] });
  }
}
