import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../infra/local/emulator/iam';
import { lambdaNode } from '../../infra/local/emulator/lambda-node';
import { readCloudStage, type CloudStage, type EmulatedFunction } from '../../infra/local/emulator/template';
import { ESBUILD_TARGET, LAMBDA_NODE_MAJOR, LAMBDA_RUNTIME } from '../../infra/runtime';
import { ManagementStack, WRITE_ACTIONS } from '../../infra/stack';
import { needsServiceKey } from '../../shared/route-def';
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

function secretId(prefix: string): string {
  const hit = resources('AWS::SecretsManager::Secret').find(([id]) => id.startsWith(prefix));
  if (!hit) throw new Error(`no secret ${prefix}`);
  return hit[0];
}

/** Logical ids of the secrets a function's role may read (GetSecretValue). */
function secretsReadableBy(fn: Resource): string[] {
  const role = fn.Properties.Role['Fn::GetAtt'][0];
  return resources('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>)
    .filter((st) => [st.Action].flat().includes('secretsmanager:GetSecretValue'))
    .flatMap((st) => [st.Resource].flat().map((res) => (res as { Ref?: string }).Ref ?? JSON.stringify(res)));
}

describe('cloud stack', () => {
  it(`has one function per built route (plus the 404/405 fallback), arm64 ${LAMBDA_RUNTIME}`, () => {
    const fns = resources('AWS::Lambda::Function');
    expect(fns).toHaveLength(builtRoutes.length + 1);
    for (const [, f] of fns) {
      expect(f.Properties.Runtime).toBe(LAMBDA_RUNTIME);
      expect(f.Properties.Architectures).toEqual(['arm64']);
    }
    for (const r of builtRoutes) functionOf(r.name);
    for (const r of routeList.filter((x) => !x.built)) {
      expect(() => functionOf(r.name), `${r.name} is planned, not deployed`).toThrow();
    }
  });

  it("keeps the template's runtime, the bundles' esbuild target and the emulator's worker Node on one major", () => {
    expect(Runtime.ALL.map((r) => r.name), 'a runtime Lambda offers').toContain(LAMBDA_RUNTIME);
    expect(LAMBDA_RUNTIME).toBe(`nodejs${LAMBDA_NODE_MAJOR}.x`);
    expect(ESBUILD_TARGET).toBe(`node${LAMBDA_NODE_MAJOR}`);
    const pinned = JSON.parse(readFileSync(new URL('../../infra/local/lambda-node/package.json', import.meta.url), 'utf8')).optionalDependencies as Record<string, string>;
    for (const [pkg, version] of Object.entries(pinned)) expect(version.split('.')[0], pkg).toBe(String(LAMBDA_NODE_MAJOR));
    // The binary the emulator (and so CI) runs the bundles on.
    expect(lambdaNode(LAMBDA_RUNTIME).version).toMatch(new RegExp(`^v${LAMBDA_NODE_MAJOR}\\.`));
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

  it('gives each deployment secret only to its own group, and the service key only to functions that key records or cursors', () => {
    const [gw, admin, server] = ['GatewaySecret', 'AdminSecret', 'ServerSecret'].map(secretId);
    const withServiceKey: string[] = [];
    for (const r of builtRoutes) {
      const [, fn] = functionOf(r.name);
      const vars = fn.Properties.Environment.Variables;
      expect(Boolean(vars.GW_SECRET_ARN), r.name).toBe(r.group === 'gateway');
      expect(Boolean(vars.ADMIN_SECRET_ARN), r.name).toBe(r.group === 'admin');
      expect(Boolean(vars.SERVER_SECRET_ARN), r.name).toBe(needsServiceKey(r));
      const readable = secretsReadableBy(fn);
      expect(readable.includes(gw!), r.name).toBe(r.group === 'gateway');
      expect(readable.includes(admin!), r.name).toBe(r.group === 'admin');
      expect(readable.includes(server!), r.name).toBe(needsServiceKey(r));
      expect(readable.filter((x) => ![gw, admin, server].includes(x)), r.name).toEqual([]);
      if (readable.includes(server!)) withServiceKey.push(r.name);
    }
    // Idempotent creates and paged lists, and nothing else (the check, reads by id, updates).
    expect(withServiceKey).toEqual(expect.arrayContaining(['usersCreate', 'keysCreate', 'oauthCreate', 'usersList', 'apisList', 'keyActivity']));
    for (const name of ['sessionsCheck', 'keysGet', 'keysDelete', 'assetsGet', 'hooksUpdate', 'hello']) expect(withServiceKey, name).not.toContain(name);
    template.resourceCountIs('AWS::SecretsManager::Secret', 3);
  });

  it('throttles the stage and writes access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 }),
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  it('logs the route template, never the raw path (paths hold clear keys; the logs outlive the stack)', () => {
    const [[, stage]] = resources('AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format) as Record<string, string>;
    expect(format.routeKey).toBe('$context.routeKey');
    // Only variables that cannot hold a path segment or a query value may be logged.
    const allowed = ['requestId', 'identity.sourceIp', 'httpMethod', 'routeKey', 'status', 'responseLatency', 'integrationErrorMessage'];
    const used = Object.values(format).flatMap((v) => [...v.matchAll(/\$context\.([A-Za-z.]+)/g)].map((m) => m[1]));
    expect(used.filter((v) => !allowed.includes(v!))).toEqual([]);
    expect(stage.Properties.AccessLogSettings.Format).not.toMatch(/\$context\.path|\$request\./);
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

describe("the stack's policies as the emulator reads them (intrinsics resolved to local names and ARNs)", () => {
  const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/t';
  let stage: CloudStage;
  const fnOf = (route: string) => [...stage.functions.values()].find((f) => f.name === route)!;
  const can = (f: EmulatedFunction, action: string, resource: string) => evaluate(f.statements, { action, resource }) === 'allowed';

  beforeAll(() => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-iam-')), 'Test.template.json');
    writeFileSync(file, JSON.stringify(template.toJSON()));
    stage = readCloudStage(file, { region: 'us-east-1', account: '000000000000', tableName: 't' });
  });

  it('resolves table and secret references to the local names and ARNs the emulator serves', () => {
    const gw = fnOf(builtRoutes.find((r) => r.group === 'gateway')!.name);
    expect(gw.environment.TABLE_NAME).toBe('t');
    expect(gw.environment.GW_SECRET_ARN).toBe(stage.secrets.find((s) => s.envName === 'GW_SECRET')!.arn);
    expect(stage.tables.map((t) => t.arn)).toEqual([TABLE]);
  });

  it('lets no function Scan, read routes only read, and each group read only its own secret', () => {
    const gwSecret = stage.secrets.find((s) => s.envName === 'GW_SECRET')!.arn;
    const adminSecret = stage.secrets.find((s) => s.envName === 'ADMIN_SECRET')!.arn;
    for (const r of builtRoutes) {
      const f = fnOf(r.name);
      expect(can(f, 'dynamodb:Scan', TABLE), r.name).toBe(false);
      expect(can(f, 'dynamodb:GetItem', TABLE), r.name).toBe(true);
      expect(can(f, 'dynamodb:Query', `${TABLE}/index/GSI1`), r.name).toBe(true);
      expect(can(f, 'dynamodb:PutItem', TABLE), r.name).toBe(r.access === 'write');
      expect(can(f, 'secretsmanager:GetSecretValue', gwSecret), r.name).toBe(r.group === 'gateway');
      expect(can(f, 'secretsmanager:GetSecretValue', adminSecret), r.name).toBe(r.group === 'admin');
    }
  });
});

