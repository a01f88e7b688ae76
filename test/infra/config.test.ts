/**
 * Stage settings (infra/config.ts): defaults per stage, values from context (strings from
 * `-c`, numbers from cdk.json), and a bad value stopping synth with a message naming its key.
 */
import { App } from 'aws-cdk-lib';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultOf, NUMBER_KEYS, readDeployRoleConfig, readStageConfig, SWITCH_KEYS } from '../../infra/config';

const read = (context: Record<string, unknown>) => readStageConfig(new App({ context }).node);

describe('stage settings', () => {
  it('default to dev, with capacity and alarm defaults', () => {
    expect(read({})).toEqual({
      stage: 'dev',
      protected: false,
      alarmEmail: undefined,
      throttle: { check: { rate: 2000, burst: 4000 }, writes: { rate: 20, burst: 40 }, other: { rate: 500, burst: 1000 } },
      orgLimits: { reads: 1200, writes: 600, hookTest: 60, portal: 600 },
      checkReservedConcurrency: 10,
      secrets: { refreshSeconds: 300, rotationWindowSeconds: 3600 },
      auditRetentionDays: 365,
      alarms: { functionErrors: 1, functionThrottles: 1, api5xxPercent: 1, checkP99Ms: 500, tableThrottles: 1, tableSystemErrors: 1 },
      cmk: false,
      demo: false,
      dataPlane: false,
      edge: undefined,
    });
  });

  it('switch the customer-managed key and the edge on with on or true, off by default', () => {
    expect(read({ cmk: 'on', edge: 'on' })).toMatchObject({ cmk: true, edge: { rateLimit: 1000 } });
    expect(read({ cmk: true, edge: true, edgeRateLimit: '300' })).toMatchObject({ cmk: true, edge: { rateLimit: 300 } });
    expect(read({ cmk: 'off', edge: false, edgeRateLimit: '300' })).toMatchObject({ cmk: false, edge: undefined });
    expect(read({ edge: 'on', edgeSecretVersion: 'a1b2c3d4-e5f6-47a8-b9c0-d1e2f3a4b5c6' }).edge).toEqual({
      rateLimit: 1000,
      secretVersion: 'a1b2c3d4-e5f6-47a8-b9c0-d1e2f3a4b5c6',
    });
  });

  it('take the secret refresh and rotation window, 0 for a hard cutover', () => {
    expect(read({ secretRefreshSeconds: '60', secretRotationWindowSeconds: 86400 }).secrets).toEqual({ refreshSeconds: 60, rotationWindowSeconds: 86400 });
    expect(read({ secretRotationWindowSeconds: '0' }).secrets).toEqual({ refreshSeconds: 300, rotationWindowSeconds: 0 });
  });

  it('protect prod and reserve more for its check', () => {
    expect(read({ stage: 'prod' })).toMatchObject({ stage: 'prod', protected: true, checkReservedConcurrency: 100 });
  });

  it('take strings from -c and numbers from cdk.json', () => {
    const c = read({ stage: 'prod', checkRateLimit: '3000', checkBurstLimit: 5000, alarm5xxPercent: '0.5', alarmEmail: 'ops@example.com' });
    expect(c.throttle.check).toEqual({ rate: 3000, burst: 5000 });
    expect(c.alarms.api5xxPercent).toBe(0.5);
    expect(c.alarmEmail).toBe('ops@example.com');
  });

  it.each([
    [{ stage: 'qa' }, 'stage', 'expected one of dev, prod, got "qa"'],
    [{ stage: 'Prod' }, 'stage', 'expected one of dev, prod'],
    [{ checkRateLimit: 'fast' }, 'checkRateLimit', 'expected a number, got "fast"'],
    [{ checkRateLimit: '-5' }, 'checkRateLimit', 'expected a number'],
    [{ checkBurstLimit: '1.5' }, 'checkBurstLimit', 'expected a whole number, got 1.5'],
    [{ writeRateLimit: 0 }, 'writeRateLimit', 'expected 1..10000, got 0'],
    [{ checkBurstLimit: 6000 }, 'checkBurstLimit', 'expected 1..5000, got 6000'],
    [{ checkReservedConcurrency: '0' }, 'checkReservedConcurrency', 'expected 1..10000, got 0'],
    [{ alarm5xxPercent: '150' }, 'alarm5xxPercent', 'expected 0.01..100, got 150'],
    [{ alarmCheckP99Ms: '2.5' }, 'alarmCheckP99Ms', 'expected a whole number'],
    [{ alarmEmail: 'ops' }, 'alarmEmail', 'expected an e-mail address, got "ops"'],
    [{ secretRefreshSeconds: '0' }, 'secretRefreshSeconds', 'expected 1..3600, got 0'],
    [{ secretRotationWindowSeconds: '300' }, 'secretRotationWindowSeconds', 'expected 0 or more than secretRefreshSeconds (300), got 300'],
    [
      { secretRefreshSeconds: '600', secretRotationWindowSeconds: '500' },
      'secretRotationWindowSeconds',
      'expected 0 or more than secretRefreshSeconds (600), got 500',
    ],
    [{ cmk: 'yes' }, 'cmk', 'expected on or off, got "yes"'],
    [{ edge: 1 }, 'edge', 'expected on or off, got 1'],
    [{ edge: 'on', edgeRateLimit: '5' }, 'edgeRateLimit', 'expected 10..2000000000, got 5'],
    [{ edge: 'on', edgeSecretVersion: 'AWSCURRENT' }, 'edgeSecretVersion', 'expected a version id of the origin secret'],
  ])('refuse %j', (context, key, message) => {
    expect(() => read(context)).toThrow(ConfigError);
    expect(() => read(context)).toThrow(`context "${key}": ${message}`);
  });
});

describe('deploy role settings', () => {
  const role = (context: Record<string, unknown>) => readDeployRoleConfig(new App({ context }).node);

  it('need the repository and the stage, and default to the default bootstrap qualifier', () => {
    expect(role({ githubRepo: 'acme/gw-management', stage: 'prod' })).toEqual({
      repo: 'acme/gw-management',
      stage: 'prod',
      existingProviderArn: undefined,
      cdkQualifier: 'hnb659fds',
    });
    expect(role({ githubRepo: 'acme@1234/gw-management@5678', stage: 'dev', cdkQualifier: 'gwdev' })).toMatchObject({ stage: 'dev', cdkQualifier: 'gwdev' });
  });

  it.each([
    [{ stage: 'dev' }, 'githubRepo'],
    [{ githubRepo: 'acme', stage: 'dev' }, 'githubRepo'],
    [{ githubRepo: 'acme/gw:management', stage: 'dev' }, 'githubRepo'],
    [{ githubRepo: 'a/b' }, 'stage'],
    [{ githubRepo: 'a/b', stage: 'staging' }, 'stage'],
    [{ githubRepo: 'a/b', stage: 'dev', githubOidcProviderArn: 'arn:aws:iam::123:oidc-provider/x' }, 'githubOidcProviderArn'],
    [{ githubRepo: 'a/b', stage: 'dev', cdkQualifier: 'Has-Caps' }, 'cdkQualifier'],
  ])('refuse %j', (context, key) => {
    expect(() => role(context)).toThrow(`context "${key}"`);
  });
});

describe('the app entries', () => {
  // `cdk synth` hands context to the app in CDK_CONTEXT_JSON.
  const run = (entry: string, context: Record<string, unknown>) =>
    spawnSync(process.execPath, ['--import', 'tsx', entry], {
      encoding: 'utf8',
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context) },
      timeout: 60_000,
    });

  it('stop synth on a bad value with a message that names the key', () => {
    const r = run('infra/app.ts', { stage: 'staging' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('context "stage": expected one of dev, prod, got "staging"');
    const role = run('infra/deploy-role-app.ts', {});
    expect(role.status).not.toBe(0);
    expect(role.stderr).toContain('context "githubRepo"');
  }, 120_000);
});

describe('the deploy guide settings table', () => {
  it('lists every setting with its default', () => {
    const readme = readFileSync('docs/operating/deploy.md', 'utf8');
    const table = /<!-- settings:start -->([\s\S]*?)<!-- settings:end -->/.exec(readme)![1]!;
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    const rowOf = (key: string) => rows.find((r) => r.split('|')[1]!.includes(`\`${key}\``));
    for (const key of ['stage', 'alarmEmail', 'upstreamAllowedHosts', 'edgeSecretVersion', ...SWITCH_KEYS, ...NUMBER_KEYS])
      expect(rowOf(key), key).toBeDefined();
    for (const key of SWITCH_KEYS) expect(rowOf(key)!.split('|')[2]!.trim(), key).toBe('`off`');
    for (const key of NUMBER_KEYS) {
      const [, keysCell, defaultsCell] = rowOf(key)!.split('|');
      const keys = [...keysCell!.matchAll(/`(\w+)`/g)].map((m) => m[1]);
      const [dev, prod] = [defaultOf(key, 'dev'), defaultOf(key, 'prod')];
      if (dev !== prod) expect(defaultsCell!.trim(), key).toBe(`dev ${dev}, prod ${prod}`);
      // A row naming two keys lists their defaults in the same order.
      else expect(defaultsCell!.split(',').map((c) => c.trim())[keys.indexOf(key)], key).toBe(String(dev));
    }
  });
});
