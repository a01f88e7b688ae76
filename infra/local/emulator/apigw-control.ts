/**
 * API Gateway v2's control plane for the data-plane API's routes and integrations, as the AWS SDK
 * speaks it (REST with JSON bodies, camelCase members): GetRoutes/GetIntegrations, Create*,
 * Update* (PATCH) and Delete*, each checked against the caller's policy as `apigateway:<METHOD>` on
 * the collection's or the item's ARN, and answered with API Gateway's status codes and error types.
 * The reconciler's SDK client (shared/net/apigw-data-plane.ts) reaches it through the emulator's
 * AWS endpoint (AWS_ENDPOINT_URL_APIGATEWAYV2).
 */
import type { ServerResponse } from 'node:http';
import type { IntegrationSpec, RouteWrite } from '../../../shared/domain/apigw-plan';
import type { DataPlaneState } from './data-plane-state';

const PATH = /^\/v2\/apis\/([A-Za-z0-9]+)\/(routes|integrations)(?:\/([A-Za-z0-9]+))?$/;

type Json = Record<string, any>;

/** SDK member names (PascalCase) from the wire's camelCase, and back. */
const pascal = (o: Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k[0]!.toUpperCase() + k.slice(1), v]));
const camel = (o: object): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k[0]!.toLowerCase() + k.slice(1), v]));

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
  /** Whether the caller's policy allows `action` on `resource`; answers and reports the refusal itself when not. */
  allowed(action: string, resource: string): boolean;
  /** The data-plane API of an id, if the stack has one. */
  stateOf(apiId: string): DataPlaneState | undefined;
}

/** Serves one control-plane request; false when the path is not one of these. */
export function servesControlPlane(url: string): boolean {
  return PATH.test(new URL(url, 'http://local').pathname);
}

export async function controlPlane(r: ControlPlaneRequest, res: ServerResponse): Promise<void> {
  const url = new URL(r.url, 'http://local');
  const [, apiId = '', kind, id] = PATH.exec(url.pathname) ?? [];
  const resource = `arn:aws:apigateway:${r.region}::/apis/${apiId}/${kind}${id ? `/${id}` : ''}`;
  if (!r.allowed(`apigateway:${r.method}`, resource)) return send(res, 403, { message: 'Forbidden' }, 'AccessDeniedException');
  const state = r.stateOf(apiId);
  if (!state) return send(res, 404, { message: `Invalid API identifier specified ${apiId}` }, 'NotFoundException');
  let input: Json = {};
  try {
    input = r.body.length ? pascal(JSON.parse(r.body.toString('utf8')) as Json) : {};
  } catch {
    return send(res, 400, { message: 'Could not parse request body into json' }, 'BadRequestException');
  }
  try {
    const routes = kind === 'routes';
    if (r.method === 'GET' && !id) {
      const items = routes ? await state.routes() : await state.integrations();
      return send(res, 200, { items: items.map(camel) });
    }
    if (r.method === 'POST' && !id) {
      if (routes) {
        const routeId = await state.createRoute(input as RouteWrite);
        return send(res, 201, camel({ ...input, RouteId: routeId }));
      }
      const integrationId = await state.createIntegration(input as IntegrationSpec);
      return send(res, 201, camel({ ...input, IntegrationId: integrationId }));
    }
    if (r.method === 'PATCH' && id) {
      if (routes) await state.updateRoute(id, input as RouteWrite);
      else await state.updateIntegration(id, input as IntegrationSpec);
      return send(res, 200, camel({ ...input, [routes ? 'RouteId' : 'IntegrationId']: id }));
    }
    if (r.method === 'DELETE' && id) {
      if (routes) await state.deleteRoute(id);
      else await state.deleteIntegration(id);
      return send(res, 204);
    }
    send(res, 404, { message: `No method ${r.method} on ${url.pathname}` }, 'NotFoundException');
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    send(res, STATUS[name] ?? 500, { message: e instanceof Error ? e.message : String(e) }, STATUS[name] ? name : 'InternalServerError');
  }
}
