/**
 * API Gateway v2's control plane as the AWS SDK speaks it (REST with JSON bodies, camelCase
 * members) over the emulated account (./apigw-account.ts): APIs, their routes, integrations,
 * authorizers and stages, custom domain names and their API mappings. Each call is checked against
 * the caller's policy as `apigateway:<METHOD>` on the ARN of the path it names
 * (`arn:aws:apigateway:<region>::/apis/<id>/routes`), and answered with API Gateway's status codes
 * and error types. The reconciler's SDK clients (shared/net/apigw-data-plane*.ts) reach it through
 * the emulator's AWS endpoint (AWS_ENDPOINT_URL_APIGATEWAYV2).
 */
import type { ServerResponse } from 'node:http';
import type { AuthorizerSpec } from '../../../shared/domain/apigw-domains';
import type { IntegrationSpec, RouteWrite } from '../../../shared/domain/apigw-plan';
import type { ApiGatewayAccount } from './apigw-account';

type Json = Record<string, any>;

/** Members whose value is a map: their keys are data, never renamed. */
const MAPS = new Set(['RequestParameters', 'Tags', 'tags', 'requestParameters']);

/** SDK member names (PascalCase) from the wire's camelCase, and back, through lists and structures. */
function renamed(v: unknown, first: (c: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => renamed(x, first));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [first(k[0]!) + k.slice(1), MAPS.has(k) ? x : renamed(x, first)]));
}
const pascal = (o: unknown) => renamed(o, (c) => c.toUpperCase()) as Json;
const camel = (o: unknown) => renamed(o, (c) => c.toLowerCase()) as Json;

function send(res: ServerResponse, status: number, body?: unknown, errorType?: string): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(text);
}

const STATUS: Record<string, number> = { NotFoundException: 404, ConflictException: 409, BadRequestException: 400 };

export interface ControlPlaneRequest {
  method: string;
  url: string;
  body: Buffer;
  region: string;
  /** Whether the caller's policy allows `action` on `resource`; reports the refusal itself when not. */
  allowed(action: string, resource: string): boolean;
  account: ApiGatewayAccount;
}

const PATH = /^\/v2\/(apis|domainnames)(?:\/([^/]+)(?:\/(routes|integrations|authorizers|stages|apimappings)(?:\/([^/]+))?)?)?$/;

/** Whether a path is one of API Gateway v2's that the emulator serves. */
export function servesControlPlane(url: string): boolean {
  return PATH.test(new URL(url, 'http://local').pathname);
}

const listOf = (items: unknown[]) => ({ status: 200, body: { items: items.map(camel) } });

/** One call on the account: its status and body, or a thrown API Gateway error. */
async function handle(a: ApiGatewayAccount, method: string, parts: string[], input: Json): Promise<{ status: number; body?: unknown }> {
  const [collection, id, kind, sub] = parts;
  const key = `${method} ${collection}${id ? '/{id}' : ''}${kind ? `/${kind}` : ''}${sub ? '/{sub}' : ''}`;
  const apiView = (x: ReturnType<ApiGatewayAccount['api']>) => ({
    ApiId: x.ApiId,
    Name: x.Name,
    ProtocolType: 'HTTP',
    DisableExecuteApiEndpoint: x.DisableExecuteApiEndpoint,
    Tags: x.Tags,
  });
  const domainView = (d: ReturnType<ApiGatewayAccount['domainName']>) => ({
    DomainName: d.DomainName,
    DomainNameConfigurations: [{ CertificateArn: d.CertificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
    Tags: d.Tags,
  });
  const state = () => a.api(id!).state;
  switch (key) {
    case 'GET apis':
      return listOf([...a.apis.values()].map(apiView));
    case 'POST apis':
      return { status: 201, body: camel(apiView(a.createApi(input))) };
    case 'GET apis/{id}':
      return { status: 200, body: camel(apiView(a.api(id!))) };
    case 'DELETE apis/{id}':
      a.deleteApi(id!);
      return { status: 204 };
    case 'GET apis/{id}/routes':
      return listOf(await state().routes());
    case 'GET apis/{id}/integrations':
      return listOf(await state().integrations());
    case 'POST apis/{id}/routes':
      return { status: 201, body: camel({ ...input, RouteId: await state().createRoute(input as RouteWrite) }) };
    case 'POST apis/{id}/integrations':
      return { status: 201, body: camel({ ...input, IntegrationId: await state().createIntegration(input as IntegrationSpec) }) };
    case 'PATCH apis/{id}/routes/{sub}':
      await state().updateRoute(sub!, input as RouteWrite);
      return { status: 200, body: camel({ ...input, RouteId: sub }) };
    case 'PATCH apis/{id}/integrations/{sub}':
      await state().updateIntegration(sub!, input as IntegrationSpec);
      return { status: 200, body: camel({ ...input, IntegrationId: sub }) };
    case 'DELETE apis/{id}/routes/{sub}':
      await state().deleteRoute(sub!);
      return { status: 204 };
    case 'DELETE apis/{id}/integrations/{sub}':
      await state().deleteIntegration(sub!);
      return { status: 204 };
    case 'GET apis/{id}/authorizers':
      return listOf([...a.api(id!).authorizers.entries()].map(([AuthorizerId, x]) => ({ AuthorizerId, AuthorizerUri: x.AuthorizerUri })));
    case 'POST apis/{id}/authorizers':
      return { status: 201, body: camel({ ...input, AuthorizerId: a.createAuthorizer(id!, input as AuthorizerSpec) }) };
    case 'GET apis/{id}/stages':
      return listOf([...a.api(id!).stages].map((StageName) => ({ StageName, AutoDeploy: true })));
    case 'POST apis/{id}/stages':
      a.createStage(id!, String(input.StageName));
      return { status: 201, body: camel({ StageName: input.StageName, AutoDeploy: input.AutoDeploy === true }) };
    case 'GET domainnames':
      return listOf([...a.domainNames.values()].map(domainView));
    case 'POST domainnames':
      return { status: 201, body: camel(domainView(a.createDomainName(input))) };
    case 'GET domainnames/{id}':
      return { status: 200, body: camel(domainView(a.domainName(id!))) };
    case 'PATCH domainnames/{id}':
      a.updateDomainName(id!, String(input.DomainNameConfigurations?.[0]?.CertificateArn ?? ''));
      return { status: 200, body: camel(domainView(a.domainName(id!))) };
    case 'DELETE domainnames/{id}':
      a.deleteDomainName(id!);
      return { status: 204 };
    case 'GET domainnames/{id}/apimappings':
      return listOf([...a.domainName(id!).mappings.values()].map((m) => ({ ...m, ApiMappingKey: '' })));
    case 'POST domainnames/{id}/apimappings':
      return { status: 201, body: camel({ ...input, ApiMappingId: a.createApiMapping(id!, input) }) };
    case 'DELETE domainnames/{id}/apimappings/{sub}':
      a.deleteApiMapping(id!, sub!);
      return { status: 204 };
    default:
      throw Object.assign(new Error(`No method ${method} on /v2/${parts.filter(Boolean).join('/')}`), { name: 'NotFoundException' });
  }
}

export async function controlPlane(r: ControlPlaneRequest, res: ServerResponse): Promise<void> {
  const url = new URL(r.url, 'http://local');
  const parts = (PATH.exec(url.pathname) ?? []).slice(1).map((p) => (p === undefined ? '' : decodeURIComponent(p)));
  const resource = `arn:aws:apigateway:${r.region}::${url.pathname.replace(/^\/v2/, '')}`;
  if (!r.allowed(`apigateway:${r.method}`, resource)) return send(res, 403, { message: 'Forbidden' }, 'AccessDeniedException');
  let input: Json = {};
  try {
    input = r.body.length ? pascal(JSON.parse(r.body.toString('utf8'))) : {};
  } catch {
    return send(res, 400, { message: 'Could not parse request body into json' }, 'BadRequestException');
  }
  try {
    const out = await handle(r.account, r.method, parts, input);
    send(res, out.status, out.body);
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    send(res, STATUS[name] ?? 500, { message: e instanceof Error ? e.message : String(e) }, STATUS[name] ? name : 'InternalServerError');
  }
}
