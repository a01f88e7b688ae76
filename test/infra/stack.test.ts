import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManagementStack, WRITE_ACTIONS } from '../../infra/stack';
import { builtRoutes, routeList } from '../../shared/routes';

let template: Template;
beforeAll(() => {
  // Bundling is skipped here (cdk synth does it); the template is otherwise the deployed one.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  template = Template.fromStack(new ManagementStack(app, 'Test'));
}, 120_000);

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (type: string): Array<[string, Resource]> =>
  Object.entries(template.findResources(type) as Record<string, Resource>);

function functionOf(routeName: string): [string, Resource] {
  const hit = resources('AWS::Lambda::Function').find(([, f]) => f.Properties.Environment?.Variables?.ROUTE_NAME === routeName);
  if (!hit) throw new Error(`no function for ${routeName}`);
  return hit;
}

function actionsOf(fn: Resource): string[] {
  const role = fn.Properties.Role['Fn::GetAtt'][0];
  return resources('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
}

describe('cloud stack', () => {
  it('has one function per built route (plus the 404/405 fallback), arm64 nodejs22.x', () => {
    const fns = resources('AWS::Lambda::Function');
    expect(fns).toHaveLength(builtRoutes.length + 1);
    for (const [, f] of fns) {
      expect(f.Properties.Runtime).toBe('nodejs22.x');
      expect(f.Properties.Architectures).toEqual(['arm64']);
    }
    for (const r of builtRoutes) functionOf(r.name);
    for (const r of routeList.filter((x) => !x.built)) {
      expect(() => functionOf(r.name), `${r.name} is planned, not deployed`).toThrow();
    }
  });

  it('routes every built route, and a $default route for the rest', () => {
    const keys = resources('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    for (const r of builtRoutes) expect(keys).toContain(`${r.method} ${r.path}`);
    expect(keys).toContain('$default');
  });

  it('keeps the table: on-demand, PITR, TTL, retained, with the shared key schema', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
      }),
    });
  });

  it('gives read-only routes no write action, and no function Scan', () => {
    for (const r of builtRoutes) {
      const actions = actionsOf(functionOf(r.name)[1]);
      expect(actions, r.name).not.toContain('dynamodb:Scan');
      const writes = actions.filter((a) => WRITE_ACTIONS.includes(a) || a === 'dynamodb:*');
      if (r.access === 'read') expect(writes, r.name).toEqual([]);
      else expect(writes.length, r.name).toBeGreaterThan(0);
    }
  });

  it('gives each deployment secret only to its own group', () => {
    for (const r of builtRoutes) {
      const vars = functionOf(r.name)[1].Properties.Environment.Variables;
      expect(Boolean(vars.GW_SECRET_ARN), r.name).toBe(r.group === 'gateway');
      expect(Boolean(vars.ADMIN_SECRET_ARN), r.name).toBe(r.group === 'admin');
      const canRead = actionsOf(functionOf(r.name)[1]).includes('secretsmanager:GetSecretValue');
      expect(canRead, r.name).toBe(r.group === 'gateway' || r.group === 'admin');
    }
    template.resourceCountIs('AWS::SecretsManager::Secret', 2);
  });

  it('throttles the stage and writes access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 }),
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it('passes upstreamAllowedHosts from the context to the dashboard functions only, and refuses an invalid one at synth', () => {
    expect(functionOf('oasImport')[1].Properties.Environment.Variables.UPSTREAM_ALLOWED_HOSTS).toBeUndefined();
    const context = { 'aws:cdk:bundling-stacks': [], upstreamAllowedHosts: 'api.example.com,10.0.0.0/8' };
    const allowed = Template.fromStack(new ManagementStack(new App({ context }), 'Allowed'));
    const fns = Object.values(allowed.findResources('AWS::Lambda::Function') as Record<string, Resource>);
    const envOf = (name: string) => fns.find((f) => f.Properties.Environment?.Variables?.ROUTE_NAME === name)!.Properties.Environment.Variables;
    expect(envOf('oasImport').UPSTREAM_ALLOWED_HOSTS).toBe('api.example.com,10.0.0.0/8');
    expect(envOf('streamsPatch').UPSTREAM_ALLOWED_HOSTS).toBe('api.example.com,10.0.0.0/8');
    expect(envOf('oasCreate').UPSTREAM_ALLOWED_HOSTS).toBeUndefined();
    const bad = { 'aws:cdk:bundling-stacks': [], upstreamAllowedHosts: 'http://x' };
    expect(() => new ManagementStack(new App({ context: bad }), 'Bad')).toThrow(/UPSTREAM_ALLOWED_HOSTS: "http:\/\/x"/);
  }, 120_000);
});

