/**
 * The functions of one route group (shared/route-groups/<group>.ts) in a nested stack of the stage:
 * each route's function, role (its grants inline), invoke permission and integration. The routes
 * stay in the stage stack beside the HTTP API, its stage and their throttles. About four resources
 * per route would otherwise pass CloudFormation's 500 resources per stack as routes are added
 * (docs/reference/limits.md).
 */
import { NestedStack } from 'aws-cdk-lib';
import type { HttpRouteIntegrationBindOptions } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { ROUTE_FUNCTIONS_METADATA } from '../route-functions-metadata';

export class RouteFunctions extends NestedStack {
  constructor(scope: Construct, id: string, props: { group: string; stackName: string }) {
    super(scope, id, { description: `Functions of the ${props.group} routes of ${props.stackName}` });
    this.nestedStackResource!.addMetadata(ROUTE_FUNCTIONS_METADATA, props.group);
  }
}

/**
 * A route's Lambda integration made in `home` (the function's nested stack) rather than beside
 * the route, with the invoke permission that goes with it: the stage stack keeps only the route.
 */
export class HomedLambdaIntegration extends HttpLambdaIntegration {
  constructor(
    id: string,
    handler: IFunction,
    private readonly home: Construct,
  ) {
    super(id, handler);
  }

  override _bindToRoute(options: HttpRouteIntegrationBindOptions): { readonly integrationId: string } {
    return super._bindToRoute({ ...options, scope: this.home });
  }
}
