/**
 * The pull-request diff as CI runs it (.github/workflows/ci.yml): `npm run diff -- --app <dir>` on
 * the templates and manifests the test job uploads (no bundles), against a stage already
 * deployed, with the diff role's credentials only. AWS is a fake here that plays STS (the CDK
 * lookup role cannot be assumed, as the diff role may not) and CloudFormation (the deployed stack
 * and its nested stack), and records what the CDK CLI asks: nothing beyond what the diff role may
 * do (infra/deploy-role-stack.ts), on nothing but the stage's stacks. The CLI needs no install
 * script either (so `npm ci --ignore-scripts` suffices in the job that holds the token).
 */
import { Template } from 'aws-cdk-lib/assertions';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeployRoleConfig } from '../../infra/config';
import { ciNames, DeployRoleStack } from '../../infra/deploy-role-stack';
import { cloudAssembly } from '../support/assembly';
import { cdkApp } from '../support/cdk';

const ACCOUNT = '123456789012';
const STACK = 'GwManagement-dev';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const response = (ns: string, action: string, inner: string) =>
  `<${action}Response ` +
  `xmlns="${ns}"><${action}Result>${inner}</${action}Result><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></${action}Response>`;
const CFN = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';
const STS = 'https://sts.amazonaws.com/doc/2011-06-15/';

let dir: string;
let server: Server;
let output = '';
let status: number | null = null;
const calls: Array<{ action: string; stack?: string; role?: string }> = [];

beforeAll(async () => {
  const assembly = await cloudAssembly();
  // What ci.yml uploads: assembly/<stage>/*.json, the templates and manifests without bundles.
  dir = join(mkdtempSync(join(tmpdir(), 'gw-diff-')), 'dev');
  mkdirSync(dir);
  for (const f of readdirSync(assembly.dir).filter((x) => x.endsWith('.json'))) copyFileSync(join(assembly.dir, f), join(dir, f));
  const template = readFileSync(join(dir, `${STACK}.template.json`), 'utf8');
  // Every nested stack (the route groups' functions, alarms and dashboard, the console), deployed under a generated name.
  const nested = Object.entries(JSON.parse(template).Resources as Record<string, { Type: string; Metadata?: Record<string, string> }>)
    .filter(([, r]) => r.Type === 'AWS::CloudFormation::Stack')
    .map(([id, r]) => ({ id, name: `${STACK}-${id}-1ABCDEF`, template: readFileSync(join(dir, r.Metadata!['aws:asset:path']!), 'utf8') }));
  const stacks: Record<string, string> = { [STACK]: template, ...Object.fromEntries(nested.map((n) => [n.name, n.template])) };
  const arnOf = (name: string) => `arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/${name}/0c7e2e30-0000-0000-0000-000000000000`;

  // The deployed stage is the one being diffed: the diff must find no difference.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const p = new URLSearchParams(body);
      const action = p.get('Action') ?? `${req.headers['x-amz-target']}`;
      const name = p.get('StackName')?.replace(/^arn:[^/]*\/([^/]+)\/.*$/, '$1');
      calls.push({ action, stack: name, role: p.get('RoleArn') ?? undefined });
      const ok = (xml: string) => res.writeHead(200, { 'content-type': 'text/xml' }).end(xml);
      const fail = (code: number, type: string, message: string) =>
        res
          .writeHead(code, { 'content-type': 'text/xml' })
          .end(
            `<ErrorResponse><Error><Type>Sender</Type><Code>${type}</Code><Message>${esc(message)}</Message></Error><RequestId>1</RequestId></ErrorResponse>`,
          );
      if (action === 'GetCallerIdentity')
        return ok(
          response(
            STS,
            action,
            `<Arn>arn:aws:sts::${ACCOUNT}:assumed-role/gw-management-dev-github-diff/ci</Arn><UserId>AROA:ci</UserId><Account>${ACCOUNT}</Account>`,
          ),
        );
      if (action === 'AssumeRole') return fail(403, 'AccessDenied', 'the diff role may not assume this role');
      if (!name || !stacks[name]) return fail(400, 'ValidationError', `Stack with id ${name} does not exist`);
      if (action === 'DescribeStacks') {
        return ok(
          response(
            CFN,
            action,
            `<Stacks><member><StackName>${name}</StackName><StackId>${arnOf(name)}</StackId>` +
              '<StackStatus>UPDATE_COMPLETE</StackStatus><CreationTime>2026-01-01T00:00:00Z</CreationTime></member></Stacks>',
          ),
        );
      }
      if (action === 'GetTemplate')
        return ok(response(CFN, action, `<TemplateBody>${esc(stacks[name]!)}</TemplateBody><StagesAvailable><member>Original</member></StagesAvailable>`));
      if (action === 'ListStackResources' && name === STACK) {
        return ok(
          response(
            CFN,
            action,
            '<StackResourceSummaries>' +
              nested
                .map(
                  (n) =>
                    `<member><LogicalResourceId>${n.id}</LogicalResourceId><PhysicalResourceId>${arnOf(n.name)}</PhysicalResourceId>` +
                    '<ResourceType>AWS::CloudFormation::Stack</ResourceType><LastUpdatedTimestamp>2026-01-01T00:00:00Z</LastUpdatedTimestamp>' +
                    '<ResourceStatus>UPDATE_COMPLETE</ResourceStatus></member>',
                )
                .join('') +
              '</StackResourceSummaries>',
          ),
        );
      }
      return fail(403, 'AccessDenied', `the fake does not answer ${action}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const home = mkdtempSync(join(tmpdir(), 'gw-diff-home-'));
  // Asynchronously: the fake AWS answers from this process's event loop.
  const child = spawn('npm', ['run', '-s', 'diff', '--', '--app', dir], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      AWS_ACCESS_KEY_ID: 'ASIAFAKEDIFFROLE',
      AWS_SECRET_ACCESS_KEY: 'fake',
      AWS_SESSION_TOKEN: 'fake',
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      CDK_DISABLE_VERSION_CHECK: '1',
      NO_COLOR: '1',
    },
  });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill(), 240_000);
  status = await new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  clearTimeout(timer);
}, 900_000);

afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('cdk diff on the uploaded assembly, with the diff role', () => {
  it('runs on templates and manifests alone, and finds the deployed stage unchanged', () => {
    expect(status, output.slice(-3000)).toBe(0);
    expect(output).toContain(`Stack ${STACK}`);
    expect(output).toMatch(/Number of stacks with differences: 0/);
  });

  it('falls back from the lookup role, which the diff role may not assume, to its own credentials', () => {
    expect(calls.filter((c) => c.action === 'AssumeRole').map((c) => c.role)).toEqual([
      `arn:aws:iam::${ACCOUNT}:role/cdk-hnb659fds-lookup-role-${ACCOUNT}-us-east-1`,
    ]);
    expect(output).toContain('was not assumed. Proceeding with default credentials.');
  });

  it("asks CloudFormation only what the diff role may, about the stage's stacks only", () => {
    const app = cdkApp({ githubRepo: 'acme/gw', stage: 'dev' });
    const roles = Template.fromStack(new DeployRoleStack(app, ciNames('dev').stack, { config: readDeployRoleConfig(app.node) })).findResources(
      'AWS::IAM::Role',
    );
    const diffRole = Object.values(roles).find((r) => r.Properties.RoleName === ciNames('dev').diffRole)!;
    const allowed = diffRole.Properties.Policies.flatMap((p: { PolicyDocument: { Statement: Array<{ Action: string[] }> } }) =>
      p.PolicyDocument.Statement.flatMap((s) => s.Action),
    );
    const asked = [...new Set(calls.filter((c) => !['GetCallerIdentity', 'AssumeRole'].includes(c.action)).map((c) => `cloudformation:${c.action}`))].sort();
    expect(asked).toEqual(['cloudformation:DescribeStacks', 'cloudformation:GetTemplate', 'cloudformation:ListStackResources']);
    expect(asked.every((a) => allowed.includes(a))).toBe(true);
    // The role's resources: stack/GwManagement-dev/* and stack/GwManagement-dev-*/*.
    expect(calls.filter((c) => c.stack).every((c) => c.stack === STACK || c.stack!.startsWith(`${STACK}-`))).toBe(true);
  });

  it('needs no install script: the CDK CLI package has none and depends on nothing', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean; dependencies?: object }> };
    expect(lock.packages['node_modules/aws-cdk']!.hasInstallScript).toBeUndefined();
    expect(lock.packages['node_modules/aws-cdk']!.dependencies).toBeUndefined();
  });
});
