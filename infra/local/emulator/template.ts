/**
 * Reads a synthesized template the way the cloud wires it: HTTP API routes -> integrations ->
 * functions -> their asset folders, handlers, environments, memory, timeouts and role policies;
 * tables and secrets. Nothing here knows our route table: whatever the template holds is served.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { Intrinsics, isTable, type CfnResource, type CfnTemplate, type LocalAccount } from './intrinsics';
import { toStatement, type Statement } from './iam';
import { mergeNestedStacks } from './nested';
import { ROUTE_FUNCTIONS_METADATA } from '../../route-functions-metadata';
import { DATA_PLANE_TAG } from '../../data-plane-tag';
import { unsupportedRule, type Pattern } from './event-filter';

export interface EmulatedFunction {
  logicalId: string;
  /** The route name (ROUTE_NAME) when the function has one, else its logical id. */
  name: string;
  handler: string;
  runtime: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** The asset folder (aws:asset:path), or why there is none. */
  codeDir?: string;
  codeProblem?: string;
  /** The function's own environment, intrinsics resolved to local values. */
  environment: Record<string, string>;
  /** Its execution role's logical id. */
  roleId?: string;
  statements: Statement[];
}

/**
 * A Lambda REQUEST authorizer of HTTP APIs (AWS::ApiGatewayV2::Authorizer), as the emulator runs
 * it: payload 2.0 with simple responses only (other kinds leave their routes unserved).
 */
export interface EmulatedAuthorizer {
  logicalId: string;
  functionId: string;
  /** Where each identity value is read: `header` or `querystring`, and the name. */
  identitySource: Array<{ from: 'header' | 'querystring'; name: string }>;
  /** AuthorizerResultTtlInSeconds: 0 (the default) invokes the authorizer on every request. */
  ttlSeconds: number;
}

export interface EmulatedRoute {
  routeKey: string;
  method: string;
  path: string;
  functionId: string;
  /** The route's Lambda authorizer (AuthorizationType CUSTOM), run before its integration. */
  authorizer?: EmulatedAuthorizer;
}

export interface EmulatedTable {
  logicalId: string;
  name: string;
  arn: string;
  create: CreateTableCommandInput;
  ttlAttribute?: string;
}

export interface EmulatedSecret {
  logicalId: string;
  arn: string;
  /** The environment variable that holds its clear value locally (GW_SECRET_ARN -> GW_SECRET). */
  envName: string;
  /** Secrets Manager's generated JSON form, when the template asks for one. */
  jsonTemplate?: { template: string; key: string };
  literal?: string;
}

export interface CloudStage {
  templateFile: string;
  functions: Map<string, EmulatedFunction>;
  routes: EmulatedRoute[];
  /** The `$default` route's function, which answers every other request. */
  defaultFunction?: string;
  /** `arn:aws:execute-api:<region>:<account>:<api>`: what an authorizer event's routeArn starts with. */
  executeApiArn: string;
  tables: EmulatedTable[];
  secrets: EmulatedSecret[];
  /**
   * The origin headers a CloudFront distribution in front of the served API adds to every request
   * (edge=on: X-Origin-Verify); values may hold Secrets Manager dynamic references.
   */
  edgeHeaders: Record<string, string>;
  /**
   * The data-plane HTTP API (-c dataPlane=on): its id (its logical id), its authorizers by id, and
   * the functions that scheduled rules run (emulated at a short interval).
   */
  dataPlane?: { apiId: string; authorizers: Map<string, EmulatedAuthorizer>; scheduled: string[] };
  /** The table stream's event source mappings the emulator feeds (stream-mappings.ts). */
  streamMappings: EmulatedStreamMapping[];
  intrinsics: Intrinsics;
  /** What the emulator could not model exactly, said once at start. */
  warnings: string[];
}

export interface ReadOptions {
  region: string;
  account: string;
  /** Local name of the table when the template has exactly one (TABLE_NAME). */
  tableName: string;
}

const byType = (t: CfnTemplate, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);

function tableNames(t: CfnTemplate, tableName: string): Map<string, string> {
  const tables = Object.entries(t.Resources).filter(([, r]) => isTable(r));
  return new Map(tables.map(([id, r]) => [id, tables.length === 1 ? tableName : typeof r.Properties?.TableName === 'string' ? r.Properties.TableName : id]));
}

function readTable(id: string, r: CfnResource, x: Intrinsics): EmulatedTable {
  const p = x.resolve(r.Properties ?? {});
  const index = (i: any) => ({ IndexName: i.IndexName, KeySchema: i.KeySchema, Projection: i.Projection ?? { ProjectionType: 'ALL' } });
  const name = x.tableName(id);
  return {
    logicalId: id,
    name,
    arn: x.tableArn(id),
    create: {
      TableName: name,
      KeySchema: p.KeySchema,
      AttributeDefinitions: p.AttributeDefinitions,
      BillingMode: 'PAY_PER_REQUEST',
      ...(p.GlobalSecondaryIndexes?.length ? { GlobalSecondaryIndexes: p.GlobalSecondaryIndexes.map(index) } : {}),
      ...(p.LocalSecondaryIndexes?.length ? { LocalSecondaryIndexes: p.LocalSecondaryIndexes.map(index) } : {}),
      // The stream the template's event source mappings read (stream-mappings.ts).
      ...(p.StreamSpecification?.StreamViewType ? { StreamSpecification: { StreamEnabled: true, StreamViewType: p.StreamSpecification.StreamViewType } } : {}),
    },
    ttlAttribute: p.TimeToLiveSpecification?.Enabled ? p.TimeToLiveSpecification.AttributeName : undefined,
  };
}

/** The role's statements: its inline policies and every AWS::IAM::Policy attached to it. */
function roleStatements(
  t: CfnTemplate,
  roleId: string | undefined,
  x: Intrinsics,
  notes: { warnings: string[]; managed: Map<string, number> },
  fnName: string,
): Statement[] {
  const { warnings, managed } = notes;
  if (!roleId) return [];
  const docs: unknown[] = [];
  for (const p of t.Resources[roleId]?.Properties?.Policies ?? []) docs.push(p.PolicyDocument);
  for (const [, p] of byType(t, 'AWS::IAM::Policy')) {
    if ((p.Properties?.Roles ?? []).some((r: any) => r?.Ref === roleId)) docs.push(p.Properties!.PolicyDocument);
  }
  for (const arn of t.Resources[roleId]?.Properties?.ManagedPolicyArns ?? []) {
    let name: string;
    try {
      name = String(x.resolve(arn)).replace(/^.*:policy\//, '');
    } catch {
      name = JSON.stringify(arn);
    }
    managed.set(name, (managed.get(name) ?? 0) + 1);
  }
  const out: Statement[] = [];
  for (const doc of docs) {
    for (const raw of [(doc as any)?.Statement ?? []].flat()) {
      let resolved: Record<string, unknown>;
      try {
        resolved = x.resolve(raw);
      } catch (e) {
        warnings.push(`${fnName}: a policy statement was left out (${(e as Error).message})`);
        continue;
      }
      const { statement, note } = toStatement(resolved);
      if (note) warnings.push(`${fnName}: ${note}`);
      if (statement) out.push(statement);
    }
  }
  return out;
}

function readFunction(
  t: CfnTemplate,
  id: string,
  r: CfnResource,
  x: Intrinsics,
  templateDir: string,
  notes: { warnings: string[]; managed: Map<string, number> },
): EmulatedFunction {
  const { warnings } = notes;
  const p = r.Properties ?? {};
  const rawEnv: Record<string, unknown> = p.Environment?.Variables ?? {};
  const name = typeof rawEnv.ROUTE_NAME === 'string' ? rawEnv.ROUTE_NAME : id;
  const environment: Record<string, string> = {};
  for (const [k, v] of Object.entries(rawEnv)) {
    try {
      environment[k] = String(x.resolve(v));
    } catch (e) {
      warnings.push(`${name}: environment ${k} cannot be resolved locally (${(e as Error).message}); left out`);
    }
  }
  const asset = r.Metadata?.['aws:asset:path'];
  const roleId = p.Role?.['Fn::GetAtt']?.[0] as string | undefined;
  return {
    logicalId: id,
    name,
    handler: String(p.Handler ?? 'index.handler'),
    runtime: String(p.Runtime ?? ''),
    memoryMb: Number(p.MemorySize ?? 128),
    timeoutSeconds: Number(p.Timeout ?? 3),
    codeDir: typeof asset === 'string' ? resolve(templateDir, asset) : undefined,
    codeProblem: typeof asset === 'string' ? undefined : 'the template has no aws:asset:path for this function (synthesize with asset metadata)',
    environment,
    roleId,
    statements: roleStatements(t, roleId, x, notes, name),
  };
}

/** The function an HTTP API integration invokes: `...:function:<logical id>` in its resolved URI. */
function integrationFunction(integration: CfnResource | undefined, x: Intrinsics): string | undefined {
  if (integration?.Type !== 'AWS::ApiGatewayV2::Integration') return undefined;
  try {
    return /:function:([^:/]+)/.exec(String(x.resolve(integration.Properties?.IntegrationUri)))?.[1];
  } catch {
    return undefined;
  }
}

/** `$request.header.X` and `$request.querystring.X`; other sources (context, stage variables) are not modelled. */
function identitySource(source: string): EmulatedAuthorizer['identitySource'][number] | undefined {
  const m = /^\$request\.(header|querystring)\.(.+)$/.exec(source);
  return m ? { from: m[1] as 'header' | 'querystring', name: m[1] === 'header' ? m[2]!.toLowerCase() : m[2]! } : undefined;
}

/**
 * The authorizer a CUSTOM route names, or why the emulator cannot run it as API Gateway would
 * (then the route is not served: never looser than the cloud).
 */
function readAuthorizer(
  t: CfnTemplate,
  route: CfnResource,
  x: Intrinsics,
  functions: Map<string, EmulatedFunction>,
): { authorizer?: EmulatedAuthorizer; problem?: string } {
  const type = route.Properties?.AuthorizationType ?? 'NONE';
  if (type === 'NONE') return {};
  if (type !== 'CUSTOM') return { problem: `authorization ${type} is not emulated` };
  return authorizerById(t, route.Properties?.AuthorizerId?.Ref as string | undefined, x, functions);
}

/** The function an authorizer's URI invokes (`arn:aws:apigateway:<region>:lambda:path/.../functions/<function ARN>/invocations`). */
export const functionIdOfUri = (uri: string): string | undefined => /:function:([^:/]+)/.exec(uri)?.[1];

/**
 * A Lambda authorizer as the emulator runs it (API Gateway's members, from a template or a
 * CreateAuthorizer call), given the function its URI invokes if the stack has it; or why it cannot.
 */
export function emulatedAuthorizer(id: string, p: Record<string, any>, functionId: string | undefined): { authorizer?: EmulatedAuthorizer; problem?: string } {
  if (p.AuthorizerType !== 'REQUEST') return { problem: `${p.AuthorizerType} authorizers are not emulated` };
  if (p.AuthorizerPayloadFormatVersion !== '2.0' || p.EnableSimpleResponses !== true) {
    return { problem: 'only payload 2.0 authorizers with simple responses are emulated' };
  }
  if (!functionId) return { problem: `authorizer ${id} invokes no function of this template` };
  const sources = [p.IdentitySource ?? []].flat().map(String);
  const identity = sources.map(identitySource);
  if (identity.some((s) => !s)) return { problem: `authorizer ${id}: identity sources ${sources.join(', ')} are not all request headers or query parameters` };
  return {
    authorizer: {
      logicalId: id,
      functionId,
      identitySource: identity as EmulatedAuthorizer['identitySource'],
      ttlSeconds: Number(p.AuthorizerResultTtlInSeconds ?? 0),
    },
  };
}

/** An AWS::ApiGatewayV2::Authorizer of the template, as the emulator runs it, or why it cannot. */
function authorizerById(
  t: CfnTemplate,
  id: string | undefined,
  x: Intrinsics,
  functions: Map<string, EmulatedFunction>,
): { authorizer?: EmulatedAuthorizer; problem?: string } {
  const a = id ? t.Resources[id] : undefined;
  if (!id || a?.Type !== 'AWS::ApiGatewayV2::Authorizer') return { problem: 'its AuthorizerId names no authorizer of this template' };
  const p = a.Properties ?? {};
  let functionId: string | undefined;
  try {
    functionId = functionIdOfUri(String(x.resolve(p.AuthorizerUri)));
  } catch {
    functionId = undefined;
  }
  return emulatedAuthorizer(id, p, functionId && functions.has(functionId) ? functionId : undefined);
}

/** Whether an HTTP API carries the data-plane tag (infra/constructs/data-plane.ts). */
function isDataPlane(api: CfnResource): boolean {
  const tags = api.Properties?.Tags;
  const value = Array.isArray(tags) ? tags.find((t: { Key?: string }) => t.Key === DATA_PLANE_TAG.key)?.Value : tags?.[DATA_PLANE_TAG.key];
  return value === DATA_PLANE_TAG.value;
}

/**
 * The data-plane API (-c dataPlane=on): its id and authorizers, which the reconciler's routes name,
 * and the functions scheduled rules run (the reconciler's repair pass).
 */
function readDataPlane(t: CfnTemplate, x: Intrinsics, functions: Map<string, EmulatedFunction>, warnings: string[]): CloudStage['dataPlane'] {
  const api = byType(t, 'AWS::ApiGatewayV2::Api').find(([, a]) => isDataPlane(a));
  if (!api) return undefined;
  const authorizers = new Map<string, EmulatedAuthorizer>();
  for (const [id, a] of byType(t, 'AWS::ApiGatewayV2::Authorizer')) {
    if (a.Properties?.ApiId?.Ref !== api[0]) continue;
    const { authorizer, problem } = authorizerById(t, id, x, functions);
    if (authorizer) authorizers.set(id, authorizer);
    else warnings.push(`data-plane authorizer ${id}: ${problem}`);
  }
  const scheduled: string[] = [];
  for (const [, rule] of byType(t, 'AWS::Events::Rule')) {
    if (!rule.Properties?.ScheduleExpression) continue;
    for (const target of rule.Properties?.Targets ?? []) {
      const fn = target?.Arn?.['Fn::GetAtt']?.[0];
      if (typeof fn === 'string' && functions.has(fn)) scheduled.push(fn);
    }
  }
  return { apiId: api[0], authorizers, scheduled };
}

/** An event source mapping of the table's stream (AWS::Lambda::EventSourceMapping), as the emulator feeds it. */
export interface EmulatedStreamMapping {
  logicalId: string;
  functionId: string;
  batchSize: number;
  /** Its FilterCriteria's patterns, parsed; none: every record. */
  patterns: Pattern[];
}

/**
 * The stream mappings of the template's tables. A mapping whose function sends to SQS is not fed
 * (SQS is not emulated), nor one whose filters the emulator cannot evaluate; each is a warning.
 */
function readStreamMappings(t: CfnTemplate, x: Intrinsics, functions: Map<string, EmulatedFunction>, warnings: string[]): EmulatedStreamMapping[] {
  const out: EmulatedStreamMapping[] = [];
  for (const [id, m] of byType(t, 'AWS::Lambda::EventSourceMapping')) {
    const source = m.Properties?.EventSourceArn?.['Fn::GetAtt'];
    if (!Array.isArray(source) || source[1] !== 'StreamArn' || !isTable(t.Resources[source[0]])) continue;
    const fn = m.Properties?.FunctionName?.Ref;
    const f = typeof fn === 'string' ? functions.get(fn) : undefined;
    if (!f) {
      warnings.push(`stream mapping ${id}: its function is not one of this template; not fed`);
      continue;
    }
    // Lambda sends a failed batch's description to the on-failure queue with the function's role:
    // that grant is the mapping's, not the function's own work.
    let onFailure: unknown;
    try {
      onFailure = x.resolve(m.Properties?.DestinationConfig?.OnFailure?.Destination ?? '');
    } catch {
      onFailure = undefined;
    }
    const sends = f.statements.filter((st) => st.effect === 'Allow' && st.actions.some((a) => a.startsWith('sqs:Send')));
    if (sends.some((st) => st.resources.some((r) => r !== onFailure))) {
      warnings.push(`stream mapping ${id} (${f.name}): its function sends to SQS, which is not emulated; not fed`);
      continue;
    }
    const patterns = (m.Properties?.FilterCriteria?.Filters ?? []).map((x: { Pattern: string }) => JSON.parse(x.Pattern) as Pattern);
    const problem = patterns.map(unsupportedRule).find(Boolean);
    if (problem) {
      warnings.push(`stream mapping ${id} (${f.name}): its filter holds ${problem}, which is not emulated; not fed`);
      continue;
    }
    out.push({ logicalId: id, functionId: f.logicalId, batchSize: Number(m.Properties?.BatchSize ?? 100), patterns });
  }
  return out;
}

/** Whether a template value is the secret's ARN or a dynamic reference to its value (`{{resolve:secretsmanager:...}}`). */
const namesSecret = (v: any, secretId: string) =>
  v?.Ref === secretId || (Array.isArray(v?.['Fn::Join']?.[1]) && v['Fn::Join'][1][0] === '{{resolve:secretsmanager:' && v['Fn::Join'][1][1]?.Ref === secretId);

/**
 * Each secret's local variable: the function environment variable naming it, minus `_ARN`
 * (GW_SECRET_ARN -> GW_SECRET), or holding its value (ORIGIN_VERIFY).
 */
function secretEnvName(t: CfnTemplate, secretId: string): string {
  for (const [, f] of byType(t, 'AWS::Lambda::Function')) {
    for (const [k, v] of Object.entries(f.Properties?.Environment?.Variables ?? {})) {
      if (namesSecret(v, secretId)) return k.replace(/_ARN$/, '');
    }
  }
  return secretId;
}

/**
 * The custom origin headers of every CloudFront distribution whose origin is the served API:
 * the emulator has no CloudFront (nor its web ACL), so its gateway adds them itself.
 */
function edgeHeaders(t: CfnTemplate, apiId: string | undefined, x: Intrinsics, warnings: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [id, d] of byType(t, 'AWS::CloudFront::Distribution')) {
    const origins: any[] = d.Properties?.DistributionConfig?.Origins ?? [];
    const toApi = origins.filter((o) => apiId && JSON.stringify(o.DomainName ?? '').includes(JSON.stringify({ Ref: apiId })));
    if (!toApi.length) continue;
    warnings.push(`CloudFront distribution ${id} and its web ACL are not emulated: requests reach the API directly, with the origin headers it adds`);
    for (const h of toApi.flatMap((o) => o.OriginCustomHeaders ?? [])) headers[String(h.HeaderName)] = String(x.resolve(h.HeaderValue));
  }
  return headers;
}

/**
 * The stack template in `templateFile` with its nested stacks of route functions merged in
 * (nested.ts), read from the assembly beside it. Other nested stacks (alarms, the console's
 * hosting) hold nothing the emulator serves and stay out.
 */
export function readStackTemplate(templateFile: string): CfnTemplate {
  const dir = dirname(resolve(templateFile));
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as CfnTemplate;
  return mergeNestedStacks(read(templateFile), (id, r) => {
    if (r.Metadata?.[ROUTE_FUNCTIONS_METADATA] === undefined) return undefined;
    const file = r.Metadata['aws:asset:path'];
    if (typeof file !== 'string' || !existsSync(join(dir, file))) throw new Error(`nested stack ${id}: no template beside ${templateFile}`);
    return read(join(dir, file));
  });
}

export function readCloudStage(templateFile: string, opts: ReadOptions): CloudStage {
  const template = readStackTemplate(templateFile);
  const local: LocalAccount = {
    region: opts.region,
    account: opts.account,
    stackName: templateFile.replace(/^.*\//, '').replace(/\.template\.json$/, ''),
    tableNames: tableNames(template, opts.tableName),
  };
  const x = new Intrinsics(template, local);
  const warnings: string[] = [];
  const templateDir = dirname(resolve(templateFile));

  const functions = new Map<string, EmulatedFunction>();
  const managed = new Map<string, number>();
  for (const [id, r] of byType(template, 'AWS::Lambda::Function')) functions.set(id, readFunction(template, id, r, x, templateDir, { warnings, managed }));
  for (const [name, count] of managed) warnings.push(`managed policy ${name} (${count} functions) is not evaluated`);

  const apis = byType(template, 'AWS::ApiGatewayV2::Api').filter(([, a]) => (a.Properties?.ProtocolType ?? 'HTTP') === 'HTTP' && !isDataPlane(a));
  if (apis.length > 1) warnings.push(`${apis.length} HTTP APIs in the template; serving ${apis[0]![0]} only`);
  const apiId = apis[0]?.[0];
  const routes: EmulatedRoute[] = [];
  let defaultFunction: string | undefined;
  for (const [id, r] of byType(template, 'AWS::ApiGatewayV2::Route')) {
    if (r.Properties?.ApiId?.Ref !== apiId) continue;
    let target: string;
    try {
      target = String(x.resolve(r.Properties?.Target ?? ''));
    } catch (e) {
      warnings.push(`route ${id}: target cannot be resolved (${(e as Error).message})`);
      continue;
    }
    const integration = template.Resources[target.replace(/^integrations\//, '')];
    const fn = integrationFunction(integration, x);
    if (!fn || !functions.has(fn)) {
      warnings.push(`route ${r.Properties?.RouteKey}: not a Lambda integration of this template; not served`);
      continue;
    }
    if (integration?.Properties?.PayloadFormatVersion !== '2.0')
      warnings.push(`route ${r.Properties?.RouteKey}: payload format ${integration?.Properties?.PayloadFormatVersion} is sent as 2.0`);
    const routeKey = String(r.Properties?.RouteKey);
    const { authorizer, problem } = readAuthorizer(template, r, x, functions);
    if (problem) {
      warnings.push(`route ${routeKey}: ${problem}; not served`);
      continue;
    }
    if (routeKey === '$default') {
      if (authorizer) {
        warnings.push('route $default: an authorizer on the $default route is not emulated; not served');
        continue;
      }
      defaultFunction = fn;
      continue;
    }
    const [method, path] = routeKey.split(' ') as [string, string];
    routes.push({ routeKey, method: method.toUpperCase(), path, functionId: fn, ...(authorizer ? { authorizer } : {}) });
  }

  const tables = Object.entries(template.Resources)
    .filter(([, r]) => isTable(r))
    .map(([id, r]) => readTable(id, r, x));
  const secrets: EmulatedSecret[] = byType(template, 'AWS::SecretsManager::Secret').map(([id, r]) => {
    const g = r.Properties?.GenerateSecretString;
    return {
      logicalId: id,
      arn: x.secretArn(id),
      envName: secretEnvName(template, id),
      jsonTemplate: g?.SecretStringTemplate && g?.GenerateStringKey ? { template: g.SecretStringTemplate, key: g.GenerateStringKey } : undefined,
      literal: typeof r.Properties?.SecretString === 'string' ? r.Properties.SecretString : undefined,
    };
  });
  return {
    templateFile: resolve(templateFile),
    functions,
    routes,
    defaultFunction,
    executeApiArn: `arn:aws:execute-api:${opts.region}:${opts.account}:local`,
    tables,
    secrets,
    edgeHeaders: edgeHeaders(template, apiId, x, warnings),
    dataPlane: readDataPlane(template, x, functions, warnings),
    streamMappings: readStreamMappings(template, x, functions, warnings),
    intrinsics: x,
    warnings,
  };
}

/** The function a name on the command line means: its route name, logical id or route key. */
export function findFunction(stage: CloudStage, name: string): EmulatedFunction | undefined {
  const fns = [...stage.functions.values()];
  return fns.find((f) => f.name === name || f.logicalId === name) ?? stage.functions.get(stage.routes.find((r) => r.routeKey === name)?.functionId ?? '');
}
