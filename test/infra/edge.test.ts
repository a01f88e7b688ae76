/**
 * `-c edge=on` (infra/constructs/edge.ts, docs/operating/security.md "Edge protection"): CloudFront in front of the
 * HTTP API with a WAF web ACL (per-IP rate rule, AWS common rule set with the rules that would
 * refuse this service's own traffic counted), the origin secret sent by CloudFront and required by
 * every HTTP function, the stage held to us-east-1. Off (the default), none of it exists.
 */
import { VIEWER_ADDRESS_FUNCTION } from '../../infra/constructs/viewer-address';
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readStageConfig } from '../../infra/config';
import { COUNTED_RULES } from '../../infra/constructs/edge';
import { ManagementStack } from '../../infra/stack';
import { routeList } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

let on: ReturnType<typeof templateOf>;
let off: ReturnType<typeof templateOf>;
beforeAll(() => {
  on = templateOf(stageStack({ stage: 'prod', edge: 'on', edgeRateLimit: '500' }).stack);
  off = templateOf(stageStack({ stage: 'prod' }).stack);
}, 180_000);

const one = (t: ReturnType<typeof templateOf>, type: string) => {
  const all = t.resources(type);
  expect(all, type).toHaveLength(1);
  return all[0]!;
};
/** The CloudFormation dynamic reference to a secret's value, as CDK writes it. */
const secretRef = (secretId: string) => ({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] });

describe('edge=on', () => {
  const originSecretId = () => on.resources('AWS::SecretsManager::Secret').find(([, s]) => s.Properties.Name === 'gw-management-prod/origin-verify')![0];

  it('puts a CloudFront distribution in front of the HTTP API: every method, nothing cached, every viewer header but Host, HTTPS only', () => {
    const [, d] = one(on, 'AWS::CloudFront::Distribution');
    const config = d.Properties.DistributionConfig;
    const [apiId] = one(on, 'AWS::ApiGatewayV2::Api');
    expect(config.Origins).toHaveLength(1);
    expect(config.Origins[0].DomainName).toEqual({
      'Fn::Join': ['', [{ Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]],
    });
    expect(config.Origins[0].CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(config.DefaultCacheBehavior).toMatchObject({
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      // The managed CachingDisabled and AllViewerExceptHostHeader policies.
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
      ViewerProtocolPolicy: 'https-only',
      // The viewer's address for the portal's sign-in, written over whatever the client sent (infra/constructs/viewer-address.ts).
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [one(on, 'AWS::CloudFront::Function')[0], 'FunctionARN'] } }],
    });
    expect(one(on, 'AWS::CloudFront::Function')[1].Properties).toMatchObject({ FunctionCode: VIEWER_ADDRESS_FUNCTION });
    expect(config.WebACLId).toEqual({ 'Fn::GetAtt': [one(on, 'AWS::WAFv2::WebACL')[0], 'Arn'] });
    expect(on.template.toJSON().Outputs.EdgeUrl.Value).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [one(on, 'AWS::CloudFront::Distribution')[0], 'DomainName'] }]],
    });
  });

  it('sends the origin secret as X-Origin-Verify by a dynamic reference, never as a value in the template', () => {
    const [, d] = one(on, 'AWS::CloudFront::Distribution');
    expect(d.Properties.DistributionConfig.Origins[0].OriginCustomHeaders).toEqual([
      { HeaderName: 'X-Origin-Verify', HeaderValue: secretRef(originSecretId()) },
    ]);
    const [, secret] = on.resources('AWS::SecretsManager::Secret').find(([id]) => id === originSecretId())!;
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    expect(secret.Properties.SecretString).toBeUndefined();
    // It guards no data: it goes with the option, in prod too.
    expect((secret as { DeletionPolicy?: string }).DeletionPolicy).toBe('Delete');
  });

  it('gives every HTTP function the same value in ORIGIN_VERIFY, and the webhook workers none', () => {
    for (const name of [...routeList.map((r) => r.name), 'fallback']) {
      expect(on.functionOf(name)[1].Properties.Environment.Variables.ORIGIN_VERIFY, name).toEqual(secretRef(originSecretId()));
    }
    for (const name of ['hookRouting', 'hookAttempts', 'auditTrail'])
      expect(on.functionOf(name)[1].Properties.Environment.Variables.ORIGIN_VERIFY, name).toBeUndefined();
  });

  it('has a CLOUDFRONT web ACL: a per-IP rate rule answering 429 on all but /gw/..., then the AWS common rule set', () => {
    const [, acl] = one(on, 'AWS::WAFv2::WebACL');
    expect(acl.Properties).toMatchObject({ Name: 'gw-management-prod-edge', Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    const [rate, common, ...others] = acl.Properties.Rules;
    expect(others).toEqual([]);
    expect(rate).toMatchObject({
      Name: 'RatePerIp',
      Priority: 0,
      Action: { Block: { CustomResponse: { ResponseCode: 429 } } },
      Statement: {
        RateBasedStatement: {
          Limit: 500,
          AggregateKeyType: 'IP',
          EvaluationWindowSec: 300,
          ScopeDownStatement: {
            NotStatement: { Statement: { ByteMatchStatement: { FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH', SearchString: '/gw/' } } },
          },
        },
      },
    });
    expect(common).toMatchObject({ Name: 'AwsCommonRuleSet', Priority: 1, OverrideAction: { None: {} } });
    expect(common.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' });
  });

  it('counts, not blocks, the common rules that would refuse 5 MB definitions and upstream URLs with IP addresses', () => {
    const [, acl] = one(on, 'AWS::WAFv2::WebACL');
    const overrides = acl.Properties.Rules[1].Statement.ManagedRuleGroupStatement.RuleActionOverrides;
    expect(overrides).toEqual(COUNTED_RULES.map((name) => ({ Name: name, ActionToUse: { Count: {} } })));
    expect(COUNTED_RULES).toEqual(expect.arrayContaining(['SizeRestrictions_BODY', 'GenericRFI_BODY']));
  });

  it('names one version of the origin secret for both CloudFront and the functions when edgeSecretVersion is set', () => {
    const version = '0f6a7c1e-4b2d-4c8e-9a1f-3d5e7b9c1a2f';
    const t = templateOf(stageStack({ stage: 'dev', edge: 'on', edgeSecretVersion: version }).stack);
    const id = t.resources('AWS::SecretsManager::Secret').find(([, s]) => s.Properties.Name === 'gw-management-dev/origin-verify')![0];
    const pinned = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: id }, `:SecretString:::${version}}}`]] };
    expect(t.resources('AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig.Origins[0].OriginCustomHeaders[0].HeaderValue).toEqual(pinned);
    for (const name of [...routeList.map((r) => r.name), 'fallback'])
      expect(t.functionOf(name)[1].Properties.Environment.Variables.ORIGIN_VERIFY, name).toEqual(pinned);
  }, 60_000);

  it('holds the stack to us-east-1: CloudFormation refuses it elsewhere, and synth refuses a region it knows', () => {
    const rules = Object.values(on.template.toJSON().Rules as Record<string, { Assertions: Array<{ Assert: unknown }> }>);
    expect(rules.map((r) => r.Assertions[0]!.Assert)).toContainEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
    const inRegion = (region: string) => {
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [], edge: 'on' } });
      return () => new ManagementStack(app, 'GwManagement-dev', { config: readStageConfig(app.node), env: { account: '123456789012', region } });
    };
    expect(inRegion('eu-west-1')).toThrow(ConfigError);
    expect(inRegion('eu-west-1')).toThrow('context "edge": a CloudFront web ACL exists only in us-east-1');
    expect(inRegion('us-east-1')).not.toThrow();
  }, 60_000);
});

describe('edge=off (the default)', () => {
  it('creates no distribution, web ACL, origin secret or region rule, and sets ORIGIN_VERIFY nowhere', () => {
    off.template.resourceCountIs('AWS::CloudFront::Distribution', 0);
    off.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(off.resources('AWS::SecretsManager::Secret').map(([, s]) => s.Properties.Name)).not.toContain('gw-management-prod/origin-verify');
    expect(Object.keys(off.template.toJSON().Rules)).toEqual(['CheckBootstrapVersion']);
    expect(JSON.stringify(off.template.toJSON())).not.toContain('ORIGIN_VERIFY');
    expect(off.template.toJSON().Outputs.EdgeUrl).toBeUndefined();
  });
});
