/**
 * `-c dataPlane=on` as synthesized (infra/constructs/data-plane.ts): the data-plane HTTP API with no
 * route of its own (the reconciler owns them), its REQUEST authorizer, and a reconciler that may
 * change only that API's routes and integrations, run by the routing version's stream records and a
 * schedule. Off, none of it is there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA_PLANE_TAG } from '../../infra/data-plane-tag';
import { stageStack, templateOf } from '../support/cdk';

let on: ReturnType<typeof templateOf>;
let off: ReturnType<typeof templateOf>;
beforeAll(() => {
  on = templateOf(stageStack({ stage: 'dev', dataPlane: 'on' }).stack);
  off = templateOf(stageStack({ stage: 'dev' }).stack);
}, 240_000);

const dataPlaneApi = (t: ReturnType<typeof templateOf>) =>
  t.resources('AWS::ApiGatewayV2::Api').filter(([, a]) => a.Properties.Tags?.[DATA_PLANE_TAG.key] === DATA_PLANE_TAG.value);
const reconciler = (t: ReturnType<typeof templateOf>) =>
  t.resources('AWS::Lambda::Function').find(([, f]) => f.Properties.Environment?.Variables?.ROUTE_NAME === 'dataPlaneReconciler');

describe('-c dataPlane=on', () => {
  it('makes the data-plane API with its authorizer and no route: the reconciler writes them', () => {
    const apis = dataPlaneApi(on);
    expect(apis).toHaveLength(1);
    const [apiId] = apis[0]!;
    expect(on.resources('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.ApiId?.Ref === apiId)).toEqual([]);
    const auths = on.resources('AWS::ApiGatewayV2::Authorizer').filter(([, a]) => a.Properties.ApiId?.Ref === apiId);
    expect(auths).toHaveLength(1);
    expect(auths[0]![1].Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: 0,
    });
    const env = reconciler(on)![1].Properties.Environment.Variables;
    expect(env).toMatchObject({ DATA_PLANE_API_ID: { Ref: apiId }, DATA_PLANE_AUTHORIZER_ID: { Ref: auths[0]![0] } });
    // The per-domain APIs' authorizers invoke the same function: the reconciler knows its URI.
    expect(env.DATA_PLANE_AUTHORIZER_URI).toEqual(auths[0]![1].Properties.AuthorizerUri);
    // A domain carrying its organisation's developer portal sends the portal's paths to the console's distribution.
    expect(JSON.stringify(env.DATA_PLANE_PORTAL_ORIGIN)).toMatch(/^\{"Fn::Join":\["",\["https:\/\/",\{"Fn::GetAtt":\["ConsoleNestedStack/);
    // The authorizer's function decides by route key (no fixed API), on the host of the API it is called for.
    const authorizerFn = on.resources('AWS::Lambda::Function').find(([, f]) => f.Properties.Environment?.Variables?.ROUTE_NAME === 'dataPlaneAuthorizer');
    expect(authorizerFn![1].Properties.Environment.Variables).not.toHaveProperty('AUTHORIZER_API_ID');
    expect(authorizerFn![1].Properties.Environment.Variables.DATA_PLANE_API_ID).toEqual({ Ref: apiId });
    // API Gateway may invoke it for the data-plane API's authorizer and for the per-domain APIs' ones, nothing else.
    const invokers = on.resources('AWS::Lambda::Permission').filter(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(authorizerFn![0]));
    expect(invokers.map(([, p]) => p.Properties.Principal)).toEqual(['apigateway.amazonaws.com', 'apigateway.amazonaws.com']);
    expect(invokers.map(([, p]) => JSON.stringify(p.Properties.SourceArn)).join()).toMatch(/authorizers\/\*/);
    const stages = on.resources('AWS::ApiGatewayV2::Stage').filter(([, st]) => st.Properties.ApiId?.Ref === apiId);
    expect(stages[0]![1].Properties.AccessLogSettings.Format).toContain('$context.routeKey');
  });

  it('lets the reconciler make and change HTTP APIs and custom domain names, verb by verb, list certificates, and write only its gateway report', () => {
    const statements = on.statementsOf(reconciler(on)![1]);
    const apigw = statements.filter((st) => [st.Action].flat().some((a) => a.startsWith('apigateway:')));
    const byVerb = Object.fromEntries(
      apigw.map((st) => [[st.Action].flat().join(), [st.Resource].flat().map((r) => JSON.stringify(r).replace(/.*::(\/[^"]*)".*/, '$1'))]),
    );
    expect(byVerb).toEqual({
      'apigateway:GET': ['/apis', '/apis/*', '/domainnames', '/domainnames/*'],
      'apigateway:POST': [
        '/apis',
        '/apis/*/routes',
        '/apis/*/integrations',
        '/apis/*/authorizers',
        '/apis/*/stages',
        '/domainnames',
        '/domainnames/*/apimappings',
      ],
      'apigateway:PATCH': ['/apis/*/routes/*', '/apis/*/integrations/*', '/domainnames/*'],
      'apigateway:DELETE': ['/apis/*', '/domainnames/*'],
    });
    const acm = statements.filter((st) => [st.Action].flat().some((a) => a.startsWith('acm:')));
    expect(acm.map((st) => st.Action)).toEqual(['acm:ListCertificates']);
    const writes = statements.filter((st) => [st.Action].flat().includes('dynamodb:PutItem'));
    expect(writes).toHaveLength(1);
    expect((writes[0] as any).Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual(['GATEWAYS#ALL']);
  });

  it("runs the reconciler on the routing version's stream records and every five minutes", () => {
    const name = reconciler(on)![0];
    const mappings = on.resources('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName?.Ref === name);
    expect(mappings).toHaveLength(1);
    expect(JSON.stringify(mappings[0]![1].Properties.FilterCriteria)).toContain('routing_version');
    const rules = on.resources('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.Targets).includes(name));
    expect(rules.map(([, r]) => r.Properties.ScheduleExpression)).toEqual(['rate(5 minutes)']);
  });

  it('is not there when off', () => {
    expect(dataPlaneApi(off)).toEqual([]);
    expect(reconciler(off)).toBeUndefined();
  });
});
