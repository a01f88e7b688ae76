/**
 * Put an API Gateway HTTP API behind this service (docs/using/serving-apis.md): a Lambda
 * REQUEST authorizer, payload 2.0 with simple responses, the key header its identity source, that
 * decides as POST /gw/sessions/check does, in process, against this stack's table, with only the
 * check's table actions. Attach `authorizer` to your own routes:
 *   api.addRoutes({ path: '/pets/{proxy+}', methods: [HttpMethod.ANY], integration, authorizer: gw.authorizer });
 *
 * Result caching is off (cacheTtl 0) because each request must spend one unit of quota: with a
 * cache, API Gateway reuses an allow for every request with the same key for cacheTtl, none of
 * them counted or refused. A `cacheTtl` is only for keys without a quota or rate limit (and
 * delays a revoked key's refusal by as long).
 */
import { Duration } from 'aws-cdk-lib';
import { HttpMethod, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { sessionsRoutes } from '../../shared/route-groups/sessions';
import { grantTableActions } from './table-grants';

/** Makes a function of the stack (its runtime, bundling, logs and tracing) from a handler file. */
type MakeFunction = (name: string, entry: string, environment: Record<string, string>) => IFunction;

export interface GatewayAuthorizerProps {
  table: ITableV2;
  /** The table's key (cmk=on). */
  encryptionKey?: IKey;
  /** The managed API (api_id) whose keys the guarded routes take. */
  apiId: string;
  /** The header holding the key (default Authorization; `Bearer ` is optional). */
  keyHeader?: string;
  /** How long API Gateway may reuse a decision for the same key: default 0 (off); see above. */
  cacheTtl?: Duration;
  makeFunction: MakeFunction;
  /** Name of the function (its log group's too); several authorizers need several names. */
  name?: string;
}

export class GatewayAuthorizer extends Construct {
  readonly authorizer: HttpLambdaAuthorizer;
  readonly function: IFunction;

  constructor(scope: Construct, id: string, props: GatewayAuthorizerProps) {
    super(scope, id);
    const keyHeader = props.keyHeader ?? 'Authorization';
    this.function = props.makeFunction(props.name ?? 'authorizer', 'functions/sessions/authorizer.ts', {
      AUTHORIZER_API_ID: props.apiId,
      AUTHORIZER_KEY_HEADER: keyHeader,
    });
    // The check's grants, nothing more: the authorizer makes the check's reads and its one write, on the check's entities.
    const check = sessionsRoutes.sessionsCheck;
    grantTableActions(this.function, props.table, { actions: check.tableActions, entities: check.tableEntities, key: props.encryptionKey });
    this.authorizer = new HttpLambdaAuthorizer(`${id}Authorizer`, this.function, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${keyHeader}`],
      resultsCacheTtl: props.cacheTtl ?? Duration.seconds(0),
    });
  }
}

/** The managed API the demo's route belongs to: create it (and a key for it) to try the demo. */
export const DEMO_API_ID = 'demo';

export interface AuthorizerDemoProps extends Omit<GatewayAuthorizerProps, 'name' | 'keyHeader' | 'cacheTtl'> {
  api: HttpApi;
}

/**
 * `-c demo=on`: ANY /demo/{proxy+} on the stage's HTTP API, guarded by a GatewayAuthorizer for
 * the managed API `apiId`, in front of a stand-in integration that answers what the authorizer
 * passed on (infra/demo/echo.ts).
 */
export class AuthorizerDemo extends Construct {
  readonly guard: GatewayAuthorizer;

  constructor(scope: Construct, id: string, props: AuthorizerDemoProps) {
    super(scope, id);
    this.guard = new GatewayAuthorizer(this, 'Guard', { ...props, name: 'demoAuthorizer' });
    const echo = props.makeFunction('demoEcho', 'infra/demo/echo.ts', {});
    props.api.addRoutes({
      path: '/demo/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('DemoEcho', echo),
      authorizer: this.guard.authorizer,
    });
  }
}
