/**
 * The cloud stack of each stage as synthesized: names per stage, what dev may lose and prod
 * keeps, tracing, capacity (route throttles, the check's reserved concurrency), and which
 * function may read which secret. Alarms and the dashboard: monitoring.test.ts; table actions:
 * table-actions.test.ts.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultOf, STAGES, stageNames, type StageName } from '../../infra/config';
import { builtRoutes, routeList } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

const synthesized = new Map<StageName, ReturnType<typeof templateOf> & { monitoring: ReturnType<typeof templateOf> }>();
beforeAll(() => {
  for (const stage of STAGES) {
    const { stack } = stageStack({ stage });
    synthesized.set(stage, { ...templateOf(stack), monitoring: templateOf(stack.monitoring) });
  }
}, 180_000);

describe.each(STAGES)('stage %s', (stage) => {
  const t = () => synthesized.get(stage)!;
  const names = stageNames(stage);
  const prod = stage === 'prod';

  it('has one function per built route (plus the 404/405 fallback), arm64 nodejs22.x, traced', () => {
    const fns = t().resources('AWS::Lambda::Function');
    expect(fns).toHaveLength(builtRoutes.length + 1);
    for (const [, f] of fns) {
      expect(f.Properties.Runtime).toBe('nodejs22.x');
      expect(f.Properties.Architectures).toEqual(['arm64']);
      expect(f.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
    for (const r of builtRoutes) t().functionOf(r.name);
    for (const r of routeList.filter((x) => !x.built)) {
      expect(() => t().functionOf(r.name), `${r.name} is planned, not deployed`).toThrow();
    }
  });

  it('routes every built route, and a $default route for the rest', () => {
    const keys = t().resources('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    for (const r of builtRoutes) expect(keys).toContain(`${r.method} ${r.path}`);
    expect(keys).toContain('$default');
  });

  it(`names the table, secrets, log groups, API, topic and dashboard for ${stage}`, () => {
    const tp = t().template;
    tp.hasResourceProperties('AWS::DynamoDB::GlobalTable', { TableName: `gw-management-${stage}` });
    const secrets = t().resources('AWS::SecretsManager::Secret').map(([, s]) => s.Properties.Name).sort();
    expect(secrets).toEqual([`gw-management-${stage}/admin`, `gw-management-${stage}/gateway`]);
    const logGroups = t().resources('AWS::Logs::LogGroup').map(([, l]) => l.Properties.LogGroupName as string);
    expect(logGroups).toHaveLength(builtRoutes.length + 2);
    for (const r of builtRoutes) expect(logGroups).toContain(`/gw-management-${stage}/functions/${r.name}`);
    expect(logGroups).toContain(`/gw-management-${stage}/api-access`);
    expect(logGroups.every((l) => l.startsWith(`/gw-management-${stage}/`))).toBe(true);
    tp.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: `GwManagement-${stage}` });
    const m = t().monitoring;
    m.template.hasResourceProperties('AWS::SNS::Topic', { TopicName: `gw-management-${stage}-alarms` });
    m.template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: `gw-management-${stage}` });
    expect(m.resources('AWS::CloudWatch::Alarm').length).toBeGreaterThan(builtRoutes.length);
    for (const [, a] of m.resources('AWS::CloudWatch::Alarm')) expect(a.Properties.AlarmName).toMatch(new RegExp(`^gw-management-${stage} `));
    expect(names.stack).toBe(`GwManagement-${stage}`);
  });

  it(prod ? 'keeps the table: deletion protection, PITR, retained; secrets and logs retained' : 'can be destroyed: no deletion protection or PITR, nothing retained', () => {
    t().template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: prod ? 'Retain' : 'Delete',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        Replicas: [Match.objectLike({ DeletionProtectionEnabled: prod, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: prod } })],
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
      }),
    });
    for (const type of ['AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup']) {
      for (const [id, r] of t().resources(type)) expect(r.DeletionPolicy, id).toBe(prod ? 'Retain' : 'Delete');
    }
  });

  it('gives each deployment secret only to its own group', () => {
    for (const r of builtRoutes) {
      const vars = t().functionOf(r.name)[1].Properties.Environment.Variables;
      expect(Boolean(vars.GW_SECRET_ARN), r.name).toBe(r.group === 'gateway');
      expect(Boolean(vars.ADMIN_SECRET_ARN), r.name).toBe(r.group === 'admin');
      const canRead = t().actionsOf(t().functionOf(r.name)[1]).includes('secretsmanager:GetSecretValue');
      expect(canRead, r.name).toBe(r.group === 'gateway' || r.group === 'admin');
    }
    t().template.resourceCountIs('AWS::SecretsManager::Secret', 2);
  });

  it(`reserves ${defaultOf('checkReservedConcurrency', stage)} executions for the check's function, and none for any other`, () => {
    for (const [, f] of t().resources('AWS::Lambda::Function')) {
      const route = f.Properties.Environment.Variables.ROUTE_NAME;
      expect(f.Properties.ReservedConcurrentExecutions, route).toBe(route === 'sessionsCheck' ? defaultOf('checkReservedConcurrency', stage) : undefined);
    }
  });

  it('throttles the check high, admin and dashboard writes low, the rest at the stage default; access logs on', () => {
    const [, s] = t().resources('AWS::ApiGatewayV2::Stage')[0]!;
    expect(s.Properties.StageName).toBe('$default');
    expect(s.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    expect(s.Properties.AccessLogSettings.DestinationArn).toBeDefined();
    const expected: Record<string, unknown> = {
      'POST /gw/sessions/check': { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000, DetailedMetricsEnabled: true },
    };
    for (const r of builtRoutes.filter((x) => x.access === 'write' && (x.group === 'admin' || x.group === 'dashboard'))) {
      expected[`${r.method} ${r.path}`] = { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 };
    }
    expect(Object.keys(expected).length).toBeGreaterThan(10);
    expect(s.Properties.RouteSettings).toEqual(expected);
    // Route settings name routes by key, so the stage is created after every route.
    const routeIds = t().resources('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.RouteKey !== '$default').map(([id]) => id);
    for (const id of routeIds) expect(s.DependsOn, id).toContain(id);
  });
});

describe('stack size', () => {
  it("stays well inside CloudFormation's 500 resources per stack (alarms live in a nested stack)", () => {
    const { resources } = synthesized.get('prod')!;
    const count = ['AWS::Lambda::Function', 'AWS::IAM::Role', 'AWS::IAM::Policy', 'AWS::Logs::LogGroup', 'AWS::ApiGatewayV2::Integration', 'AWS::Lambda::Permission', 'AWS::ApiGatewayV2::Route']
      .map((type) => resources(type).length)
      .reduce((a, b) => a + b, 0);
    const total = Object.keys(synthesized.get('prod')!.template.toJSON().Resources).length;
    expect(total - count).toBeLessThan(20);
    // About 7 resources per route: split the functions into nested stacks before this fails.
    expect(total, `${total} resources`).toBeLessThanOrEqual(450);
  });
});

describe('capacity settings from context', () => {
  it('take the throttles and the reservation from -c values', () => {
    const t = templateOf(
      stageStack({ stage: 'prod', checkRateLimit: '3000', checkBurstLimit: '5000', writeRateLimit: 5, writeBurstLimit: '7', stageRateLimit: '100', stageBurstLimit: '200', checkReservedConcurrency: '250' }).stack,
    );
    const [, s] = t.resources('AWS::ApiGatewayV2::Stage')[0]!;
    expect(s.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    expect(s.Properties.RouteSettings['POST /gw/sessions/check']).toEqual({ ThrottlingRateLimit: 3000, ThrottlingBurstLimit: 5000, DetailedMetricsEnabled: true });
    expect(s.Properties.RouteSettings['POST /admin/users']).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 7 });
    expect(t.functionOf('sessionsCheck')[1].Properties.ReservedConcurrentExecutions).toBe(250);
  }, 120_000);
});
