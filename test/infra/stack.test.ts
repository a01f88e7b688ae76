/**
 * The cloud stack of each stage as synthesized: names per stage, what dev may lose and prod
 * keeps, tracing, capacity (route throttles, the check's reserved concurrency), which function
 * may read which secret, and the policies as the emulator evaluates them. Alarms and the
 * dashboard: monitoring.test.ts; table actions: table-actions.test.ts.
 */
import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultOf, STAGES, stageNames, type StageName } from '../../infra/config';
import { RouteFunctions } from '../../infra/constructs/route-functions';
import { evaluate } from '../../infra/local/emulator/iam';
import { lambdaNode } from '../../infra/local/emulator/lambda-node';
import { readCloudStage, type CloudStage, type EmulatedFunction } from '../../infra/local/emulator/template';
import { ESBUILD_TARGET, LAMBDA_NODE_MAJOR, LAMBDA_RUNTIME } from '../../infra/runtime';
import { needsServiceKey, orgLimitOf } from '../../shared/route-def';
import { closedRoutes } from '../../shared/http/route-match';
import { routeGroups, routeList } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

const synthesized = new Map<StageName, ReturnType<typeof templateOf> & { monitoring: ReturnType<typeof templateOf>; stack: Stack }>();
beforeAll(() => {
  for (const stage of STAGES) {
    const { stack } = stageStack({ stage });
    synthesized.set(stage, { ...templateOf(stack), monitoring: templateOf(stack.monitoring), stack });
  }
}, 180_000);

describe.each(STAGES)('stage %s', (stage) => {
  const t = () => synthesized.get(stage)!;
  const names = stageNames(stage);
  const prod = stage === 'prod';

  /** Logical id of the stage's secret whose id starts with `prefix`. */
  const secretId = (prefix: string): string => {
    const hit = t()
      .resources('AWS::SecretsManager::Secret')
      .find(([id]) => id.startsWith(prefix));
    if (!hit) throw new Error(`no secret ${prefix}`);
    return hit[0];
  };
  /** Logical ids of the secrets a function's role may read (GetSecretValue). */
  const secretsReadableBy = (fn: Parameters<ReturnType<typeof templateOf>['statementsOf']>[0]): string[] =>
    t()
      .statementsOf(fn)
      .filter((st) => [st.Action].flat().includes('secretsmanager:GetSecretValue'))
      .flatMap((st) => [st.Resource].flat().map((res) => (res as { Ref?: string }).Ref ?? JSON.stringify(res)));

  it(`has one function per built route (plus the fallback and six workers), arm64 ${LAMBDA_RUNTIME}, traced`, () => {
    const fns = t().resources('AWS::Lambda::Function');
    expect(fns).toHaveLength(routeList.length + 7);
    for (const [, f] of fns) {
      expect(f.Properties.Runtime).toBe(LAMBDA_RUNTIME);
      expect(f.Properties.Architectures).toEqual(['arm64']);
      expect(f.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
    for (const r of routeList) t().functionOf(r.name);
  });

  it("keeps the template's runtime, the bundles' esbuild target and the emulator's worker Node on one major", () => {
    expect(
      Runtime.ALL.map((r) => r.name),
      'a runtime Lambda offers',
    ).toContain(LAMBDA_RUNTIME);
    expect(LAMBDA_RUNTIME).toBe(`nodejs${LAMBDA_NODE_MAJOR}.x`);
    expect(ESBUILD_TARGET).toBe(`node${LAMBDA_NODE_MAJOR}`);
    const pinned = JSON.parse(readFileSync(new URL('../../infra/local/lambda-node/package.json', import.meta.url), 'utf8')).optionalDependencies as Record<
      string,
      string
    >;
    for (const [pkg, version] of Object.entries(pinned)) expect(version.split('.')[0], pkg).toBe(String(LAMBDA_NODE_MAJOR));
    // The binary the emulator (and so CI) runs the bundles on.
    expect(lambdaNode(LAMBDA_RUNTIME).version).toMatch(new RegExp(`^v${LAMBDA_NODE_MAJOR}\\.`));
  });

  it('routes every built route, and a $default route for the rest', () => {
    const keys = t()
      .resources('AWS::ApiGatewayV2::Route')
      .map(([, r]) => r.Properties.RouteKey);
    for (const r of routeList) expect(keys).toContain(`${r.method} ${r.path}`);
    expect(keys).toContain('$default');
  });

  it("closes a fixed path's methods that only a templated sibling has: they go to $default's function (405), not the sibling's", () => {
    const routes = t().resources('AWS::ApiGatewayV2::Route');
    const target = (key: string) => JSON.stringify(routes.find(([, r]) => r.Properties.RouteKey === key)?.[1].Properties.Target);
    const closed = closedRoutes(routeList);
    expect(closed.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /api/apis/oas', 'PUT /api/apis/oas/import', 'GET /gw/keys/create']),
    );
    for (const r of closed) expect(target(`${r.method} ${r.path}`), `${r.method} ${r.path}`).toBe(target('$default'));
    // One invoke permission serves them all (scoped to the API), not one per route.
    expect(t().resources('AWS::Lambda::Permission').length).toBeLessThanOrEqual(routeList.length + 6);
  });

  it(`names the table, secrets, log groups, API, topic and dashboard for ${stage}`, () => {
    const tp = t().template;
    tp.hasResourceProperties('AWS::DynamoDB::GlobalTable', { TableName: `gw-management-${stage}` });
    const secrets = t()
      .resources('AWS::SecretsManager::Secret')
      .map(([, s]) => s.Properties.Name)
      .sort();
    expect(secrets).toEqual([`gw-management-${stage}/admin`, `gw-management-${stage}/gateway`, `gw-management-${stage}/service-key`]);
    const logGroups = t()
      .resources('AWS::Logs::LogGroup')
      .map(([, l]) => l.Properties.LogGroupName as string);
    // One group per folder of functions/ (each function's streams carry its name), not one per function.
    const folders = new Set([...routeList.map((r) => r.entry.split('/')[1]!), 'system', 'hooks', 'audit']);
    expect(logGroups.filter((l) => l.startsWith(`/gw-management-${stage}/functions/`)).sort()).toEqual(
      [...folders].map((f) => `/gw-management-${stage}/functions/${f}`).sort(),
    );
    expect(logGroups).toContain(`/gw-management-${stage}/api-access`);
    expect(logGroups.every((l) => l.startsWith(`/gw-management-${stage}/`))).toBe(true);
    tp.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: `GwManagement-${stage}` });
    const m = t().monitoring;
    m.template.hasResourceProperties('AWS::SNS::Topic', { TopicName: `gw-management-${stage}-alarms` });
    m.template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: `gw-management-${stage}` });
    expect(m.resources('AWS::CloudWatch::Alarm').length).toBeGreaterThan(routeList.length);
    for (const [, a] of m.resources('AWS::CloudWatch::Alarm')) expect(a.Properties.AlarmName).toMatch(new RegExp(`^gw-management-${stage} `));
    expect(names.stack).toBe(`GwManagement-${stage}`);
  });

  it(
    prod
      ? 'keeps the table: deletion protection, PITR, retained; secrets and logs retained'
      : 'can be destroyed: no deletion protection or PITR, nothing retained',
    () => {
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
    },
  );

  // A route that believes a gateway on the viewer's address also reads the gateway credential.
  it('gives each deployment secret only to its own group, and the service key only to functions that key records or cursors', () => {
    const [gw, admin, server] = ['GatewaySecret', 'AdminSecret', 'ServerSecret'].map(secretId);
    const withServiceKey: string[] = [];
    for (const r of routeList) {
      const [, fn] = t().functionOf(r.name);
      const vars = fn.Properties.Environment.Variables;
      // A route that counts by the viewer's address checks a gateway's credential beside the address it vouches for.
      expect(Boolean(vars.GW_SECRET_ARN), r.name).toBe(r.group === 'gateway' || r.viewerAddress === true);
      expect(Boolean(vars.ADMIN_SECRET_ARN), r.name).toBe(r.group === 'admin');
      expect(Boolean(vars.SERVER_SECRET_ARN), r.name).toBe(needsServiceKey(r));
      // The functions that check a group secret re-read it and honour the rotation window.
      const rotating = r.group === 'gateway' || r.group === 'admin' || r.viewerAddress === true;
      expect(vars.SECRET_REFRESH_SECONDS, r.name).toBe(rotating ? String(defaultOf('secretRefreshSeconds', stage)) : undefined);
      expect(vars.SECRET_ROTATION_WINDOW_SECONDS, r.name).toBe(rotating ? String(defaultOf('secretRotationWindowSeconds', stage)) : undefined);
      const readable = secretsReadableBy(fn);
      expect(readable.includes(gw!), r.name).toBe(r.group === 'gateway' || r.viewerAddress === true);
      expect(readable.includes(admin!), r.name).toBe(r.group === 'admin');
      expect(readable.includes(server!), r.name).toBe(needsServiceKey(r));
      expect(
        readable.filter((x) => ![gw, admin, server].includes(x)),
        r.name,
      ).toEqual([]);
      if (readable.includes(server!)) withServiceKey.push(r.name);
    }
    // Idempotent creates and paged lists, and nothing else (the check, reads by id, updates).
    expect(withServiceKey).toEqual(expect.arrayContaining(['usersCreate', 'keysCreate', 'oauthCreate', 'usersList', 'apisList', 'keyActivity']));
    for (const name of ['sessionsCheck', 'keysGet', 'keysDelete', 'assetsGet', 'hooksUpdate', 'hello']) expect(withServiceKey, name).not.toContain(name);
    t().template.resourceCountIs('AWS::SecretsManager::Secret', 3);
  });

  it(`reserves ${defaultOf('checkReservedConcurrency', stage)} executions for the check's function, and none for any other`, () => {
    for (const [, f] of t().resources('AWS::Lambda::Function')) {
      const route = f.Properties.Environment.Variables.ROUTE_NAME;
      expect(f.Properties.ReservedConcurrentExecutions, route).toBe(route === 'sessionsCheck' ? defaultOf('checkReservedConcurrency', stage) : undefined);
    }
  });

  it("throttles the check high, every write but the gateway's low (admin, dashboard, portal), the rest at the stage default; access logs on", () => {
    const [, s] = t().resources('AWS::ApiGatewayV2::Stage')[0]!;
    expect(s.Properties.StageName).toBe('$default');
    expect(s.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    expect(s.Properties.AccessLogSettings.DestinationArn).toBeDefined();
    const expected: Record<string, unknown> = {
      'POST /gw/sessions/check': { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000, DetailedMetricsEnabled: true },
    };
    for (const r of routeList.filter((x) => x.access === 'write' && x.group !== 'gateway')) {
      expected[`${r.method} ${r.path}`] = { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 };
    }
    expect(Object.keys(expected).length).toBeGreaterThan(10);
    expect(s.Properties.RouteSettings).toEqual(expected);
    // Route settings name routes by key, so the stage is created after every route.
    const routeIds = t()
      .resources('AWS::ApiGatewayV2::Route')
      .filter(([, r]) => r.Properties.RouteKey !== '$default')
      .map(([id]) => id);
    for (const id of routeIds) expect(s.DependsOn, id).toContain(id);
  });

  it('logs the route template, never the raw path (paths hold clear keys; the logs outlive the stack)', () => {
    const [, apiStage] = t().resources('AWS::ApiGatewayV2::Stage')[0]!;
    const format = JSON.parse(apiStage.Properties.AccessLogSettings.Format) as Record<string, string>;
    expect(format.routeKey).toBe('$context.routeKey');
    // Only variables that cannot hold a path segment or a query value may be logged.
    const allowed = ['requestId', 'identity.sourceIp', 'httpMethod', 'routeKey', 'status', 'responseLatency', 'integrationErrorMessage'];
    const used = Object.values(format).flatMap((v) => [...v.matchAll(/\$context\.([A-Za-z.]+)/g)].map((m) => m[1]));
    expect(used.filter((v) => !allowed.includes(v!))).toEqual([]);
    expect(apiStage.Properties.AccessLogSettings.Format).not.toMatch(/\$context\.path|\$request\./);
  });

  it('passes upstreamAllowedHosts from the context to the dashboard functions only, and refuses an invalid one at synth', () => {
    expect(t().functionOf('oasImport')[1].Properties.Environment.Variables.UPSTREAM_ALLOWED_HOSTS).toBeUndefined();
    const allowed = templateOf(stageStack({ stage, upstreamAllowedHosts: 'api.example.com,10.0.0.0/8' }).stack);
    const envOf = (name: string) => allowed.functionOf(name)[1].Properties.Environment.Variables;
    expect(envOf('oasImport').UPSTREAM_ALLOWED_HOSTS).toBe('api.example.com,10.0.0.0/8');
    expect(envOf('streamsPatch').UPSTREAM_ALLOWED_HOSTS).toBe('api.example.com,10.0.0.0/8');
    expect(envOf('oasCreate').UPSTREAM_ALLOWED_HOSTS).toBeUndefined();
    expect(() => stageStack({ stage, upstreamAllowedHosts: 'http://x' })).toThrow(/context "upstreamAllowedHosts": UPSTREAM_ALLOWED_HOSTS: "http:\/\/x"/);
  }, 120_000);
});

describe("the stack's policies as the emulator reads them (intrinsics resolved to local names and ARNs)", () => {
  const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/t';
  let stage: CloudStage;
  const fnOf = (route: string) => [...stage.functions.values()].find((f) => f.name === route)!;
  const can = (f: EmulatedFunction, action: string, resource: string) => evaluate(f.statements, { action, resource }) === 'allowed';

  beforeAll(() => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-iam-')), 'Test.template.json');
    writeFileSync(file, JSON.stringify(synthesized.get('dev')!.template.toJSON()));
    stage = readCloudStage(file, { region: 'us-east-1', account: '000000000000', tableName: 't' });
  });

  it('resolves table and secret references to the local names and ARNs the emulator serves', () => {
    const gw = fnOf(routeList.find((r) => r.group === 'gateway')!.name);
    expect(gw.environment.TABLE_NAME).toBe('t');
    expect(gw.environment.GW_SECRET_ARN).toBe(stage.secrets.find((s) => s.envName === 'GW_SECRET')!.arn);
    expect(stage.tables.map((t) => t.arn)).toEqual([TABLE]);
  });

  it("lets each function send exactly its declared table actions (no Scan; Query alone reaches the indexes), and read only its own group's secret", () => {
    const gwSecret = stage.secrets.find((s) => s.envName === 'GW_SECRET')!.arn;
    const adminSecret = stage.secrets.find((s) => s.envName === 'ADMIN_SECRET')!.arn;
    for (const r of routeList) {
      const f = fnOf(r.name);
      const declared = r.tableActions ?? [];
      expect(can(f, 'dynamodb:Scan', TABLE), r.name).toBe(false);
      for (const a of ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'] as const) {
        // A route that names no entity only queries indexes: no item of the table at all.
        expect(can(f, `dynamodb:${a}`, TABLE), `${r.name} ${a}`).toBe((declared as readonly string[]).includes(a) && (r.tableEntities?.length ?? 0) > 0);
        expect(can(f, `dynamodb:${a}`, `${TABLE}/index/GSI1`), `${r.name} ${a} on an index`).toBe(a === 'Query' && declared.includes('Query'));
      }
      expect(can(f, 'secretsmanager:GetSecretValue', gwSecret), r.name).toBe(r.group === 'gateway' || r.viewerAddress === true);
      expect(can(f, 'secretsmanager:GetSecretValue', adminSecret), r.name).toBe(r.group === 'admin');
    }
  });
});

describe('stack size', () => {
  it("keeps every stack well inside CloudFormation's 500 resources: each route group's functions in a nested stack of their own", () => {
    const { stack } = synthesized.get('prod')!;
    const own = (s: Stack) => Template.fromStack(s).toJSON().Resources as Record<string, { Type: string }>;
    const root = own(stack);
    // The stage keeps one resource per route (the route, beside the HTTP API and its stage); the
    // functions, roles, permissions and integrations are in the groups' nested stacks.
    expect(Object.keys(root).length, `${Object.keys(root).length} resources in the stage stack`).toBeLessThanOrEqual(200);
    expect(Object.values(root).filter((r) => r.Type === 'AWS::Lambda::Function')).toHaveLength(7);
    const homes = stack.node.findAll().filter((c): c is RouteFunctions => c instanceof RouteFunctions);
    expect(homes).toHaveLength(Object.keys(routeGroups).length);
    for (const [group, defs] of Object.entries(routeGroups)) {
      const home = homes.find((h) => h.node.id === `Routes${group[0]!.toUpperCase()}${group.slice(1)}`)!;
      const fns = Object.values(own(home)).filter((r) => r.Type === 'AWS::Lambda::Function');
      expect(fns, group).toHaveLength(Object.keys(defs).length);
    }
    // About four resources per route in a group's stack; alarms (two per function) in Monitoring's.
    for (const nested of stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack)) {
      const n = Object.keys(own(nested)).length;
      expect(n, `${n} resources in ${nested.node.id}`).toBeLessThanOrEqual(300);
    }
  });
});

describe('capacity settings from context', () => {
  it('take the throttles and the reservation from -c values', () => {
    const t = templateOf(
      stageStack({
        stage: 'prod',
        checkRateLimit: '3000',
        checkBurstLimit: '5000',
        writeRateLimit: 5,
        writeBurstLimit: '7',
        stageRateLimit: '100',
        stageBurstLimit: '200',
        checkReservedConcurrency: '250',
      }).stack,
    );
    const [, s] = t.resources('AWS::ApiGatewayV2::Stage')[0]!;
    expect(s.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    expect(s.Properties.RouteSettings['POST /gw/sessions/check']).toEqual({
      ThrottlingRateLimit: 3000,
      ThrottlingBurstLimit: 5000,
      DetailedMetricsEnabled: true,
    });
    expect(s.Properties.RouteSettings['POST /admin/users']).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 7 });
    expect(s.Properties.RouteSettings['POST /portal/{orgID}/sessions']).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 7 });
    expect(s.Properties.RouteSettings['POST /portal/{orgID}/developers']).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 7 });
    expect(t.functionOf('sessionsCheck')[1].Properties.ReservedConcurrentExecutions).toBe(250);
  }, 120_000);

  it('give each dashboard function that spends an organisation limit its number, the default or a -c value', () => {
    const spending = routeList.filter((r) => orgLimitOf(r));
    expect(spending.length).toBeGreaterThan(0);
    const lowered = templateOf(stageStack({ orgReadLimit: '300', orgWriteLimit: '100', orgHookTestLimit: '5' }).stack);
    for (const r of routeList) {
      const limit = orgLimitOf(r);
      const vars = lowered.functionOf(r.name)[1].Properties.Environment.Variables;
      expect([vars.ORG_READ_LIMIT, vars.ORG_WRITE_LIMIT, vars.ORG_HOOK_TEST_LIMIT], r.name).toEqual([
        limit === 'reads' ? '300' : undefined,
        limit === 'writes' ? '100' : undefined,
        limit === 'hookTest' ? '5' : undefined,
      ]);
    }
    const vars = (name: string) => templateOf(stageStack({}).stack).functionOf(name)[1].Properties.Environment.Variables;
    expect(vars('hooksList').ORG_READ_LIMIT).toBe('1200');
    expect(vars('hooksCreate').ORG_WRITE_LIMIT).toBe('600');
    expect(vars('hooksTest').ORG_HOOK_TEST_LIMIT).toBe('60');
    expect(() => stageStack({ orgWriteLimit: '0' })).toThrow(/context "orgWriteLimit": expected 1\.\.1000000, got 0/);
  }, 120_000);

  it('take the secret refresh and rotation window from -c values', () => {
    const t = templateOf(stageStack({ secretRefreshSeconds: '60', secretRotationWindowSeconds: '900' }).stack);
    for (const name of ['sessionsCheck', 'organisationsCreate']) {
      const vars = t.functionOf(name)[1].Properties.Environment.Variables;
      expect([vars.SECRET_REFRESH_SECONDS, vars.SECRET_ROTATION_WINDOW_SECONDS], name).toEqual(['60', '900']);
    }
  }, 120_000);
});
