/**
 * Every setting of the cloud stages, read from CDK context (`-c key=value` or cdk.json) in this
 * one place and checked before anything is built: a bad value stops synth with a message that
 * names the key. The docs/operating/deploy.md "Stages and settings" table lists them.
 */
import type { Node } from 'constructs';
import { AUDIT_RETENTION_DAYS, SECRET_REFRESH, SECRET_ROTATION_WINDOW } from '../shared/config';
import { ORG_LIMIT_MAX, ORG_LIMITS, type OrgLimitClass } from '../shared/limits';
import { parseHostAllowList } from '../shared/domain/upstream-hosts';

export const STAGES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGES)[number];

export interface StageConfig {
  stage: StageName;
  /** prod: deletion protection, retained table and secrets, point-in-time recovery. */
  protected: boolean;
  /** Subscribed to the alarm topic (a confirmation e-mail is sent on deploy). */
  alarmEmail?: string;
  throttle: {
    /** POST /gw/sessions/check, the data plane. */
    check: { rate: number; burst: number };
    /** Every admin and dashboard route that writes. */
    writes: { rate: number; burst: number };
    /** Every other route (the stage default). */
    other: { rate: number; burst: number };
  };
  /**
   * UPSTREAM_ALLOWED_HOSTS of the dashboard functions (docs/reference/configuration.md): the upstreams an
   * import or streams patch may name; unset, any host.
   */
  upstreamAllowedHosts?: string;
  /**
   * ORG_WRITE_LIMIT and ORG_HOOK_TEST_LIMIT of the dashboard functions that spend them: each
   * organisation's requests per window, by class (docs/reference/limits.md).
   */
  orgLimits: Record<OrgLimitClass, number>;
  /** Concurrent executions kept for the check alone, so no other function can use them up. */
  checkReservedConcurrency: number;
  /**
   * SECRET_REFRESH_SECONDS and SECRET_ROTATION_WINDOW_SECONDS of the gateway and admin functions
   * (docs/operating/security.md "Rotate a deployment secret").
   */
  secrets: { refreshSeconds: number; rotationWindowSeconds: number };
  /** AUDIT_RETENTION_DAYS of the audit consumer: how long audit entries are kept (docs/using/audit-trail.md). */
  auditRetentionDays: number;
  alarms: {
    /** Unhandled errors (crash, timeout) of one function in 5 minutes. */
    functionErrors: number;
    /** Throttled invocations of one function in 5 minutes. */
    functionThrottles: number;
    /** Share of API answers that are 5xx over 5 minutes, in percent. */
    api5xxPercent: number;
    /** p99 latency of POST /gw/sessions/check, ms, for three 5-minute periods in a row. */
    checkP99Ms: number;
    /** Throttled table requests in 5 minutes. */
    tableThrottles: number;
    /** Table system errors (HTTP 500 from DynamoDB) in 5 minutes. */
    tableSystemErrors: number;
  };
  /**
   * `cmk=on`: one customer-managed KMS key (rotated yearly) encrypts the table, the webhook queues
   * and the log groups (docs/operating/security.md "Encryption keys"); off, AWS-owned and service keys do.
   */
  cmk: boolean;
  /**
   * `demo=on`: ANY /demo/{proxy+} on the HTTP API behind the Lambda authorizer of the managed API
   * `demo` (docs/using/serving-apis.md), to see enforcement end to end after a deploy.
   */
  demo: boolean;
  /**
   * `dataPlane=on`: the managed data plane (docs/operating/data-plane.md): an HTTP API whose routes
   * the reconciler keeps equal to the stored definitions, behind the check's Lambda authorizer.
   */
  dataPlane: boolean;
  /**
   * `edge=on`: CloudFront and a WAF web ACL in front of the HTTP API, which then answers only
   * requests that carry the distribution's secret origin header (docs/operating/security.md "Edge protection").
   */
  edge?: {
    /** Requests per 5 minutes one IP address may send to the dashboard, admin and public paths. */
    rateLimit: number;
    /**
     * The version of the origin secret CloudFront and the functions use (docs/operating/security.md
     * "Edge protection"); unset, the current one as of each resource's last update.
     */
    secretVersion?: string;
  };
}

/** Each setting: its context key, default (per stage where they differ) and check. */
const NUMBERS = {
  checkRateLimit: { default: 2000, min: 1, max: 10_000 },
  checkBurstLimit: { default: 4000, min: 1, max: 5000 },
  writeRateLimit: { default: 20, min: 1, max: 10_000 },
  writeBurstLimit: { default: 40, min: 1, max: 5000 },
  stageRateLimit: { default: 500, min: 1, max: 10_000 },
  stageBurstLimit: { default: 1000, min: 1, max: 5000 },
  checkReservedConcurrency: { default: { dev: 10, prod: 100 }, min: 1, max: 10_000 },
  alarmFunctionErrors: { default: 1, min: 1, max: 1_000_000 },
  alarmFunctionThrottles: { default: 1, min: 1, max: 1_000_000 },
  alarm5xxPercent: { default: 1, min: 0.01, max: 100, decimal: true },
  alarmCheckP99Ms: { default: 500, min: 10, max: 30_000 },
  alarmTableThrottles: { default: 1, min: 1, max: 1_000_000 },
  alarmTableSystemErrors: { default: 1, min: 1, max: 1_000_000 },
  secretRefreshSeconds: SECRET_REFRESH,
  secretRotationWindowSeconds: SECRET_ROTATION_WINDOW,
  orgReadLimit: { default: ORG_LIMITS.reads.perWindow, min: 1, max: ORG_LIMIT_MAX },
  orgWriteLimit: { default: ORG_LIMITS.writes.perWindow, min: 1, max: ORG_LIMIT_MAX },
  orgHookTestLimit: { default: ORG_LIMITS.hookTest.perWindow, min: 1, max: ORG_LIMIT_MAX },
  orgPortalLimit: { default: ORG_LIMITS.portal.perWindow, min: 1, max: ORG_LIMIT_MAX },
  // WAF's bounds for a rate-based rule over its default 5-minute window.
  edgeRateLimit: { default: 1000, min: 10, max: 2_000_000_000 },
  auditRetentionDays: AUDIT_RETENTION_DAYS,
} as const satisfies Record<string, { default: number | Record<StageName, number>; min: number; max: number; decimal?: boolean }>;

export type NumberKey = keyof typeof NUMBERS;
export const NUMBER_KEYS = Object.keys(NUMBERS) as NumberKey[];

/** The default of a numeric setting in a stage (the table of docs/operating/deploy.md "Stages and settings" shows these). */
export function defaultOf(key: NumberKey, stage: StageName): number {
  const d = NUMBERS[key].default;
  return typeof d === 'number' ? d : d[stage];
}

export class ConfigError extends Error {
  constructor(key: string, message: string) {
    super(`context "${key}": ${message}`);
    this.name = 'ConfigError';
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The on/off settings: `on` or `off` from `-c`, true or false from cdk.json; unset is off. */
export const SWITCH_KEYS = ['cmk', 'edge', 'demo', 'dataPlane'] as const;
function readSwitch(node: Node, key: (typeof SWITCH_KEYS)[number]): boolean {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '' || raw === 'off' || raw === false) return false;
  if (raw === 'on' || raw === true) return true;
  throw new ConfigError(key, `expected on or off, got ${JSON.stringify(raw)}`);
}

/** A value from the command line is a string; one from cdk.json may be a number. */
function readNumber(node: Node, key: NumberKey, stage: StageName): number {
  const spec: { min: number; max: number; decimal?: boolean } = NUMBERS[key];
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return defaultOf(key, stage);
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(n)) throw new ConfigError(key, `expected a number, got ${JSON.stringify(raw)}`);
  if (!spec.decimal && !Number.isInteger(n)) throw new ConfigError(key, `expected a whole number, got ${n}`);
  if (n < spec.min || n > spec.max) throw new ConfigError(key, `expected ${spec.min}..${spec.max}, got ${n}`);
  return n;
}

/** A Secrets Manager version id (a UUID when Secrets Manager made it). */
function readSecretVersion(node: Node): string | undefined {
  const raw: unknown = node.tryGetContext('edgeSecretVersion');
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^[A-Za-z0-9-]{32,64}$/.test(raw)) {
    throw new ConfigError('edgeSecretVersion', `expected a version id of the origin secret (32-64 letters, digits and dashes), got ${JSON.stringify(raw)}`);
  }
  return raw;
}

export function readStageConfig(node: Node): StageConfig {
  const stageRaw: unknown = node.tryGetContext('stage') ?? 'dev';
  if (!STAGES.includes(stageRaw as StageName)) {
    throw new ConfigError('stage', `expected one of ${STAGES.join(', ')}, got ${JSON.stringify(stageRaw)}`);
  }
  const stage = stageRaw as StageName;
  const email: unknown = node.tryGetContext('alarmEmail');
  if (email !== undefined && email !== '' && (typeof email !== 'string' || !EMAIL.test(email))) {
    throw new ConfigError('alarmEmail', `expected an e-mail address, got ${JSON.stringify(email)}`);
  }
  const hosts: unknown = node.tryGetContext('upstreamAllowedHosts');
  if (hosts !== undefined && hosts !== '') {
    if (typeof hosts !== 'string') throw new ConfigError('upstreamAllowedHosts', `expected a comma-separated list, got ${JSON.stringify(hosts)}`);
    try {
      parseHostAllowList(hosts);
    } catch (e) {
      throw new ConfigError('upstreamAllowedHosts', (e as Error).message);
    }
  }
  const num = (key: NumberKey) => readNumber(node, key, stage);
  const secrets = { refreshSeconds: num('secretRefreshSeconds'), rotationWindowSeconds: num('secretRotationWindowSeconds') };
  // A window no longer than the refresh could close before a warm function has read the new
  // value, leaving no moment when clients may switch safely (0 is a deliberate hard cutover).
  if (secrets.rotationWindowSeconds !== 0 && secrets.rotationWindowSeconds <= secrets.refreshSeconds) {
    throw new ConfigError(
      'secretRotationWindowSeconds',
      `expected 0 or more than secretRefreshSeconds (${secrets.refreshSeconds}), got ${secrets.rotationWindowSeconds}`,
    );
  }
  const pair = (rate: NumberKey, burst: NumberKey) => ({ rate: num(rate), burst: num(burst) });
  return {
    stage,
    protected: stage === 'prod',
    alarmEmail: typeof email === 'string' && email !== '' ? email : undefined,
    upstreamAllowedHosts: typeof hosts === 'string' && hosts !== '' ? hosts : undefined,
    orgLimits: { reads: num('orgReadLimit'), writes: num('orgWriteLimit'), hookTest: num('orgHookTestLimit'), portal: num('orgPortalLimit') },
    throttle: {
      check: pair('checkRateLimit', 'checkBurstLimit'),
      writes: pair('writeRateLimit', 'writeBurstLimit'),
      other: pair('stageRateLimit', 'stageBurstLimit'),
    },
    checkReservedConcurrency: num('checkReservedConcurrency'),
    secrets,
    auditRetentionDays: num('auditRetentionDays'),
    alarms: {
      functionErrors: num('alarmFunctionErrors'),
      functionThrottles: num('alarmFunctionThrottles'),
      api5xxPercent: num('alarm5xxPercent'),
      checkP99Ms: num('alarmCheckP99Ms'),
      tableThrottles: num('alarmTableThrottles'),
      tableSystemErrors: num('alarmTableSystemErrors'),
    },
    cmk: readSwitch(node, 'cmk'),
    demo: readSwitch(node, 'demo'),
    dataPlane: readSwitch(node, 'dataPlane'),
    edge: readSwitch(node, 'edge') ? { rateLimit: num('edgeRateLimit'), secretVersion: readSecretVersion(node) } : undefined,
  };
}

/** Names of everything a stage creates: two stages live side by side in one account. */
export function stageNames(stage: StageName) {
  const base = `gw-management-${stage}`;
  return {
    /** What every name below starts with. */
    prefix: base,
    stack: `GwManagement-${stage}`,
    table: base,
    secret: (group: string) => `${base}/${group}`,
    functionLogs: (folder: string) => `/${base}/functions/${folder}`,
    accessLogs: `/${base}/api-access`,
    alarmTopic: `${base}-alarms`,
    dashboard: base,
    alarm: (what: string) => `${base} ${what}`,
    queue: (what: string) => `${base}-${what}`,
    keyAlias: `alias/${base}`,
    webAcl: `${base}-edge`,
  };
}

/** The GitHub OIDC roles of one stage and the policy its CloudFormation deploys with (infra/deploy-role-app.ts). */
export interface DeployRoleConfig {
  /**
   * The one repository whose workflows may assume the roles, as its OIDC `sub` claim names it:
   * `owner/name`, or `owner@<org id>/name@<repo id>` for repositories that emit immutable claims.
   */
  repo: string;
  /** The stage these roles deploy and diff; its GitHub environment has the same name. */
  stage: StageName;
  /** An existing GitHub OIDC provider of the account (there can be only one per URL). */
  existingProviderArn?: string;
  /** The CDK bootstrap qualifier of the stage's account and region (`cdk bootstrap --qualifier`). */
  cdkQualifier: string;
}

const REPO = /^[A-Za-z0-9_.-]+(@\d+)?\/[A-Za-z0-9_.-]+(@\d+)?$/;
const OIDC_ARN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;

export function readDeployRoleConfig(node: Node): DeployRoleConfig {
  const repo: unknown = node.tryGetContext('githubRepo');
  if (typeof repo !== 'string' || !REPO.test(repo)) {
    throw new ConfigError(
      'githubRepo',
      `expected the GitHub repository as its OIDC subject names it (owner/name or owner@<org id>/name@<repo id>), got ${JSON.stringify(repo)}`,
    );
  }
  // No default: the roles of one stage go into that stage's account, so the operator names it.
  const stage: unknown = node.tryGetContext('stage');
  if (!STAGES.includes(stage as StageName)) {
    throw new ConfigError('stage', `expected the stage whose roles to create, one of ${STAGES.join(', ')}, got ${JSON.stringify(stage)}`);
  }
  const provider: unknown = node.tryGetContext('githubOidcProviderArn');
  if (provider !== undefined && provider !== '' && (typeof provider !== 'string' || !OIDC_ARN.test(provider))) {
    throw new ConfigError(
      'githubOidcProviderArn',
      `expected the ARN of the account's token.actions.githubusercontent.com provider, got ${JSON.stringify(provider)}`,
    );
  }
  const qualifier: unknown = node.tryGetContext('cdkQualifier') ?? 'hnb659fds';
  if (typeof qualifier !== 'string' || !/^[a-z0-9]{1,10}$/.test(qualifier)) {
    throw new ConfigError('cdkQualifier', `expected the bootstrap qualifier (1-10 lowercase letters and digits), got ${JSON.stringify(qualifier)}`);
  }
  return { repo, stage: stage as StageName, existingProviderArn: typeof provider === 'string' && provider ? provider : undefined, cdkQualifier: qualifier };
}
