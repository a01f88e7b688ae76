/**
 * The stack as `cdk synth` really builds it (bundling on, unlike stack.test.ts), from the assembly
 * the emulator tests share (test/support/assembly.ts):
 * - synth is hermetic: it ran with npm offline and an empty npm cache;
 * - the import function ships the validator and its whole closure beside its bundle, at the
 *   lockfile's versions;
 * - every function carries the CDK asset metadata that `sam local start-api -t <template>` reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runtimeClosure, type Lockfile } from '../../infra/node-modules';
import { LAMBDA_RUNTIME } from '../../infra/runtime';
import { readStackTemplate } from '../../infra/local/emulator/template';
import { routes } from '../../shared/routes';
import { cloudAssembly, type Assembly } from '../support/assembly';

type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, any> };
let a: Assembly;
let resources: Record<string, Resource>;
const fns = () => Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
const assetDir = (r: Resource) => resolve(dirname(a.template), r.Metadata!['aws:asset:path']);

beforeAll(async () => {
  a = await cloudAssembly();
  // The route functions are in nested stacks of the stage: their templates merged in.
  resources = readStackTemplate(a.template).Resources as Record<string, Resource>;
}, 900_000);

describe('cdk synth with bundling', () => {
  it('works with npm offline and an empty npm cache: nothing is fetched or installed', () => {
    expect(a.synth).toMatchObject({ offline: true, emptyCache: true });
    expect(a.synth.cacheFilesAfter.filter((f) => !f.startsWith('_logs/'))).toEqual([]);
  });

  it("ships the import function's validator and its closure beside the bundle, at the lockfile's versions", () => {
    const [, fn] = fns().find(([, r]) => r.Properties.Environment.Variables.ROUTE_NAME === 'oasImport')!;
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lockfile & {
      packages: Record<string, { version: string }>;
    };
    const wanted = Object.keys(lock.packages).filter((p) => runtimeClosure(lock, routes.oasImport.nodeModules!).some((c) => p === c || p.startsWith(`${c}/`)));
    expect(wanted.length).toBeGreaterThan(5);
    for (const p of wanted) {
      const shipped = JSON.parse(readFileSync(join(assetDir(fn), p, 'package.json'), 'utf8')) as { version: string };
      expect(shipped.version, p).toBe(lock.packages[p]!.version);
    }
  });

  it('gives every function the CDK asset metadata sam local reads, pointing at its bundle', () => {
    expect(fns().length).toBeGreaterThan(1);
    for (const [id, fn] of fns()) {
      expect(fn.Metadata, id).toMatchObject({
        'aws:asset:property': 'Code',
        'aws:asset:is-bundled': true,
        'aws:asset:path': expect.stringMatching(/^asset\./),
      });
      expect(fn.Properties.Handler, id).toBe('index.handler');
      expect(fn.Properties.Runtime, id).toBe(LAMBDA_RUNTIME);
      expect(existsSync(join(assetDir(fn), 'index.mjs')), `${id} bundle`).toBe(true);
    }
  });

  it('wires each HTTP API route to its function the way sam local resolves it (Target -> integration -> function ARN)', () => {
    const routesOfApi = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
    expect(routesOfApi.length).toBeGreaterThan(1);
    for (const r of routesOfApi) {
      const [, parts] = r.Properties.Target['Fn::Join'];
      expect(parts[0], r.Properties.RouteKey).toBe('integrations/');
      const integration = resources[parts[1].Ref]!;
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      const [fnId, attr] = integration.Properties.IntegrationUri['Fn::GetAtt'];
      expect([resources[fnId]?.Type, attr], r.Properties.RouteKey).toEqual(['AWS::Lambda::Function', 'Arn']);
    }
  });
});
