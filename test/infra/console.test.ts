/**
 * The web console's hosting (infra/constructs/console-hosting.ts, docs/using/console.md): a nested stack
 * with a private bucket read only by its CloudFront distribution (origin access control), the
 * HTTP API as the distribution's second origin for /api/*, the console's Content-Security-Policy
 * as a response headers policy, the page-path function, and the files uploaded by a
 * BucketDeployment; with edge=on the same distribution behind the stage's web ACL, sending the
 * origin secret. Its resource types are covered by the CloudFormation execution policy.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../console/host/headers';
import { ConsoleHosting, PAGES_FUNCTION } from '../../infra/constructs/console-hosting';
import { VIEWER_ADDRESS_FUNCTION } from '../../infra/constructs/viewer-address';
import { COVERED_RESOURCE_TYPES } from '../../infra/execution-policy';
import type { ManagementStack } from '../../infra/stack';
import { stageStack, templateOf } from '../support/cdk';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
interface Synthesized {
  parent: ReturnType<typeof templateOf>;
  nested: Record<string, Resource>;
  parameters: Record<string, unknown>;
  /** The parent's value for a nested-stack parameter. */
  passed(param: string): unknown;
}

function synthesize(context: Record<string, string>): Synthesized {
  const { stack } = stageStack(context);
  const hosting = (stack as ManagementStack).node.findAll().find((c): c is ConsoleHosting => c instanceof ConsoleHosting)!;
  const nested = Template.fromStack(hosting).toJSON();
  const parent = templateOf(stack);
  const [, nestedResource] = parent.resources('AWS::CloudFormation::Stack').find(([id]) => id.startsWith('ConsoleNestedStack'))!;
  return { parent, nested: nested.Resources, parameters: nested.Parameters ?? {}, passed: (p) => nestedResource.Properties.Parameters[p] };
}

const ofType = (r: Record<string, Resource>, type: string) => Object.entries(r).filter(([, x]) => x.Type === type);
const one = (r: Record<string, Resource>, type: string): [string, Resource] => {
  const all = ofType(r, type);
  expect(all, type).toHaveLength(1);
  return all[0]!;
};

/** The CloudFront function whose name ends in `suffix`. */
const cfFunction = (t: Synthesized, suffix: string): [string, Resource] =>
  ofType(t.nested, 'AWS::CloudFront::Function').find(([, f]) => String(f.Properties.Name).endsWith(suffix))!;

let off: Synthesized;
let on: Synthesized;
beforeAll(() => {
  off = synthesize({ stage: 'prod' });
  on = synthesize({ stage: 'prod', edge: 'on' });
}, 180_000);

describe('the console bucket', () => {
  it('is private: all public access blocked, encrypted, TLS only, readable by this distribution alone', () => {
    const [bucketId, bucket] = one(off.nested, 'AWS::S3::Bucket');
    expect(bucket.Properties.BucketName).toEqual({ 'Fn::Join': ['', ['gw-management-prod-console-', { Ref: 'AWS::AccountId' }, '-', { Ref: 'AWS::Region' }]] });
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();

    const [, policy] = one(off.nested, 'AWS::S3::BucketPolicy');
    const statements = policy.Properties.PolicyDocument.Statement as Array<Record<string, any>>;
    expect(statements.find((s) => s.Effect === 'Deny')).toMatchObject({ Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    const [distributionId] = one(off.nested, 'AWS::CloudFront::Distribution');
    expect(allows[0]).toMatchObject({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' });
    expect(JSON.stringify(allows[0]!.Condition)).toContain(distributionId);
    expect(JSON.stringify(allows[0]!.Resource)).toContain(bucketId);
    expect(JSON.stringify(allows)).not.toMatch(/"Principal":"\*"|"AWS":"\*"/);
  });

  it('gets console/dist from a BucketDeployment: hashed assets cached a year and pruned, the entry revalidated, nothing else uploaded', () => {
    const deployments = ofType(off.nested, 'Custom::CDKBucketDeployment').map(([, d]) => d.Properties);
    expect(deployments).toHaveLength(2);
    for (const d of deployments) {
      expect(d.DestinationBucketKeyPrefix).toBe('console/');
      expect(d.RetainOnDelete).toBe(false);
    }
    const [assets, entry] = [deployments.find((d) => d.Prune === true)!, deployments.find((d) => d.Prune === false)!];
    expect(assets.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(assets.Exclude).toEqual(['.build-hash', '.vite/*', 'index.html', 'portal/index.html', 'favicon.svg']);
    expect(entry.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(entry).toMatchObject({ Exclude: ['*'], Include: ['index.html', 'portal/index.html', 'favicon.svg'] });
    const [, fn] = one(off.nested, 'AWS::Lambda::Function');
    expect(fn.Properties.LoggingConfig.LogGroup).toEqual({ Ref: one(off.nested, 'AWS::Logs::LogGroup')[0] });
    expect(one(off.nested, 'AWS::Logs::LogGroup')[1].Properties).toMatchObject({ LogGroupName: '/gw-management-prod/console-deployment', RetentionInDays: 30 });
  });
});

describe('the console distribution', () => {
  const config = (s: Synthesized) => one(s.nested, 'AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;

  it('serves the bucket through origin access control with the Content-Security-Policy and the page-path function', () => {
    const c = config(off);
    const s3 = c.Origins.find((o: any) => o.S3OriginConfig);
    expect(s3.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [one(off.nested, 'AWS::CloudFront::OriginAccessControl')[0], 'Id'] });
    expect(s3.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(c.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: s3.Id,
      AllowedMethods: ['GET', 'HEAD'],
      ViewerProtocolPolicy: 'redirect-to-https',
      Compress: true,
    });
    expect(c.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [cfFunction(off, 'console-pages')[0], 'FunctionARN'] } },
    ]);

    const [policyId, policy] = one(off.nested, 'AWS::CloudFront::ResponseHeadersPolicy');
    expect(c.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    const security = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: CONTENT_SECURITY_POLICY, Override: true });
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|\*|https?:/);
    expect(security).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY' },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer' },
    });
    expect(security.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true });
    expect(ofType(off.nested, 'AWS::CloudFront::Function')).toHaveLength(2);
    expect(cfFunction(off, 'console-pages')[1].Properties).toMatchObject({
      Name: 'gw-management-prod-console-pages',
      AutoPublish: true,
      FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
    });
  });

  it('sends /api/*, /admin/* and /portal/* to the HTTP API on one domain (no CORS): every method, nothing cached, no origin secret without the edge', () => {
    const c = config(off);
    const [behavior, admin, portal] = c.CacheBehaviors;
    expect(c.CacheBehaviors).toHaveLength(3);
    expect(admin).toEqual({ ...behavior, PathPattern: '/admin/*' });
    // The developer portal's web app calls its routes on the console's origin; without this they would reach the bucket.
    // Its sign-in counts attempts by the viewer's address, which a viewer-request function names (infra/constructs/viewer-address.ts).
    const viewer = cfFunction(off, 'console-viewer');
    expect(viewer[1].Properties).toMatchObject({ Name: 'gw-management-prod-console-viewer', FunctionCode: VIEWER_ADDRESS_FUNCTION });
    expect(portal).toEqual({
      ...behavior,
      PathPattern: '/portal/*',
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [viewer[0], 'FunctionARN'] } }],
    });
    expect(behavior).toMatchObject({
      PathPattern: '/api/*',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
      ViewerProtocolPolicy: 'https-only',
    });
    const api = c.Origins.find((o: any) => o.Id === behavior.TargetOriginId);
    expect(api.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    const apiParam = api.DomainName['Fn::Join'][1][0].Ref;
    expect(off.passed(apiParam)).toEqual({ Ref: off.parent.resources('AWS::ApiGatewayV2::Api')[0]![0] });
    expect(api.OriginCustomHeaders).toBeUndefined();
    expect(c.WebACLId).toBeUndefined();
    expect(JSON.stringify(c)).not.toContain('Cors');
  });

  it("with edge=on: behind the stage web ACL, sending X-Origin-Verify by a dynamic reference; the edge distribution stays the API's", () => {
    const c = config(on);
    const webAclParam = c.WebACLId.Ref;
    expect(on.passed(webAclParam)).toEqual({ 'Fn::GetAtt': [on.parent.resources('AWS::WAFv2::WebACL')[0]![0], 'Arn'] });
    const api = c.Origins.find((o: any) => o.CustomOriginConfig);
    const [header] = api.OriginCustomHeaders;
    expect(header.HeaderName).toBe('X-Origin-Verify');
    const [prefix, ref, suffix] = header.HeaderValue['Fn::Join'][1];
    expect([prefix, suffix]).toEqual(['{{resolve:secretsmanager:', ':SecretString:::}}']);
    const secretId = on.parent.resources('AWS::SecretsManager::Secret').find(([, s]) => s.Properties.Name === 'gw-management-prod/origin-verify')![0];
    expect(on.passed(ref.Ref)).toEqual({ Ref: secretId });
    // The edge's own distribution keeps only the API origin.
    const [, edge] = on.parent.resources('AWS::CloudFront::Distribution')[0]!;
    expect(edge.Properties.DistributionConfig.Origins).toHaveLength(1);
    expect(edge.Properties.DistributionConfig.CacheBehaviors).toBeUndefined();
  });

  it("names its address in the stage's ConsoleUrl output", () => {
    const outputs = off.parent.template.toJSON().Outputs;
    expect(JSON.stringify(outputs.ConsoleUrl.Value)).toMatch(/ConsoleNestedStack.*Distribution\w*DomainName/);
    expect(outputs.ConsoleUrl.Value['Fn::Join'][1]).toEqual(['https://', expect.anything(), '/console/']);
  });
});

describe('the page-path function (cloudfront-js-2.0)', () => {
  const handler = new Function(`${PAGES_FUNCTION}; return handler;`)() as (e: unknown) => {
    uri?: string;
    statusCode?: number;
    headers?: Record<string, { value: string }>;
  };
  const view = (uri: string) => handler({ request: { uri, headers: {} } });

  it('answers index.html for page paths, leaves files alone, and redirects / and /console to /console/', () => {
    expect(view('/console/').uri).toBe('/console/index.html');
    expect(view('/console/webhooks/0123abcd').uri).toBe('/console/index.html');
    expect(view('/console/keys/new').uri).toBe('/console/index.html');
    expect(view('/console/assets/index-Ab12.js').uri).toBe('/console/assets/index-Ab12.js');
    expect(view('/console/favicon.svg').uri).toBe('/console/favicon.svg');
    expect(view('/console/portal/acme/').uri).toBe('/console/portal/index.html');
    expect(view('/console/portal/acme/keys').uri).toBe('/console/portal/index.html');
    expect(view('/console/portal').uri).toBe('/console/portal/index.html');
    expect(view('/console/developer-portal/requests').uri).toBe('/console/index.html');
    for (const uri of ['/', '/console']) expect(view(uri)).toMatchObject({ statusCode: 301, headers: { location: { value: '/console/' } } });
    expect(view('/elsewhere').uri).toBe('/elsewhere');
  });
});

describe('the CloudFormation execution policy', () => {
  it("covers every resource type of the console's nested stack", () => {
    const types = new Set([...Object.values(on.nested), ...Object.values(off.nested)].map((r) => r.Type));
    const covered = new Set(Object.values(COVERED_RESOURCE_TYPES).flat());
    expect([...types].filter((t) => !covered.has(t))).toEqual([]);
    expect(types.size).toBeGreaterThan(8);
  });
});
