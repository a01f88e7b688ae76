/**
 * The Lambda authorizer users attach to their own HTTP API routes (infra/constructs/gateway-authorizer.ts)
 * and the `-c demo=on` route that shows it, as synthesized.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { GatewayAuthorizer } from '../../infra/constructs/gateway-authorizer';
import { routes } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

let demo: ReturnType<typeof templateOf>;
let plain: ReturnType<typeof templateOf>;
beforeAll(() => {
  demo = templateOf(stageStack({ stage: 'dev', demo: 'on' }).stack);
  plain = templateOf(stageStack({ stage: 'dev' }).stack);
}, 240_000);

const authorizerFn = (t: ReturnType<typeof templateOf>) =>
  t.resources('AWS::Lambda::Function').find(([, f]) => f.Properties.Environment?.Variables?.ROUTE_NAME === 'demoAuthorizer');

describe('-c demo=on', () => {
  it('guards ANY /demo/{proxy+} with a REQUEST authorizer: payload 2.0, simple responses, the key header its identity source, no caching', () => {
    const auths = demo.resources('AWS::ApiGatewayV2::Authorizer');
    expect(auths).toHaveLength(1);
    const [authId, auth] = auths[0]!;
    expect(auth.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: 0,
    });
    const route = demo.resources('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === 'ANY /demo/{proxy+}');
    expect(route, 'the demo route').toBeDefined();
    expect(route![1].Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authId } });
  });

  it("runs the check's service in process with exactly the check's table actions and no secret", () => {
    const [, fn] = authorizerFn(demo)!;
    expect(fn.Properties.Environment.Variables).toMatchObject({ AUTHORIZER_API_ID: 'demo', AUTHORIZER_KEY_HEADER: 'Authorization' });
    expect(fn.Properties.Environment.Variables.GW_SECRET_ARN).toBeUndefined();
    const actions = demo.actionsOf(fn);
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(routes.sessionsCheck.tableActions.map((a) => `dynamodb:${a}`).sort());
    expect(actions.some((a) => a.startsWith('secretsmanager:'))).toBe(false);
  });

  it('is absent unless asked for', () => {
    expect(plain.resources('AWS::ApiGatewayV2::Authorizer')).toHaveLength(0);
    expect(authorizerFn(plain)).toBeUndefined();
  });
});

describe("GatewayAuthorizer on a user's own HTTP API", () => {
  it('takes another key header and a cacheTtl (for keys without quota)', () => {
    const stack = new Stack();
    const table = new TableV2(stack, 'T', { partitionKey: { name: 'PK', type: AttributeType.STRING }, sortKey: { name: 'SK', type: AttributeType.STRING } });
    const makeFunction = (name: string) =>
      new LambdaFunction(stack, name, { runtime: Runtime.NODEJS_20_X, handler: 'index.handler', code: Code.fromInline('exports.handler=async()=>({})') });
    const gw = new GatewayAuthorizer(stack, 'Gw', { table, apiId: 'pets', keyHeader: 'X-Api-Key', cacheTtl: Duration.seconds(60), makeFunction });
    const api = new HttpApi(stack, 'Api');
    api.addRoutes({ path: '/pets', methods: [HttpMethod.GET], integration: new HttpLambdaIntegration('I', makeFunction('up')), authorizer: gw.authorizer });
    const t = templateOf(stack);
    expect(t.resources('AWS::ApiGatewayV2::Authorizer')[0]![1].Properties).toMatchObject({
      IdentitySource: ['$request.header.X-Api-Key'],
      AuthorizerResultTtlInSeconds: 60,
    });
  });
});
