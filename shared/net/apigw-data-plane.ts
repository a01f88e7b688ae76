/**
 * The data-plane API's control plane through the AWS SDK (API Gateway v2): what the reconciler
 * (shared/services/data-plane.ts) calls in the cloud, and against the emulator's endpoint locally
 * (AWS_ENDPOINT_URL_APIGATEWAYV2), with the same code.
 */
import {
  ApiGatewayV2Client,
  CreateIntegrationCommand,
  CreateRouteCommand,
  DeleteIntegrationCommand,
  DeleteRouteCommand,
  GetIntegrationsCommand,
  GetRoutesCommand,
  UpdateIntegrationCommand,
  UpdateRouteCommand,
} from '@aws-sdk/client-apigatewayv2';
import type { ApigwIntegration, ApigwRoute, DataPlaneApi, RouteWrite } from '../domain/apigw-plan';

/** Every page of a Get* listing (API Gateway answers 100 items a page at most). */
export async function allPages<T>(page: (next?: string) => Promise<{ Items?: T[]; NextToken?: string }>): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined;
  do {
    const p = await page(next);
    out.push(...(p.Items ?? []));
    next = p.NextToken;
  } while (next);
  return out;
}

export function sdkDataPlane(apiId: string, client = new ApiGatewayV2Client({ maxAttempts: 5 })): DataPlaneApi {
  const routes = () =>
    allPages(async (NextToken) => {
      const p = await client.send(new GetRoutesCommand({ ApiId: apiId, NextToken, MaxResults: '100' }));
      return { Items: (p.Items ?? []) as ApigwRoute[], NextToken: p.NextToken };
    });
  /**
   * Creates the route; when another reconcile (the stream's and the scheduled repair can run at
   * once) created its key in between, sets that one as this plan says instead.
   */
  async function createRoute(route: RouteWrite): Promise<string> {
    try {
      return (await client.send(new CreateRouteCommand({ ApiId: apiId, ...route }))).RouteId!;
    } catch (e) {
      const made = (e as { name?: string }).name === 'ConflictException' ? (await routes()).find((r) => r.RouteKey === route.RouteKey) : undefined;
      if (!made) throw e;
      await client.send(new UpdateRouteCommand({ ApiId: apiId, RouteId: made.RouteId, ...route }));
      return made.RouteId;
    }
  }
  return {
    routes,
    integrations: () =>
      allPages(async (NextToken) => {
        const p = await client.send(new GetIntegrationsCommand({ ApiId: apiId, NextToken, MaxResults: '100' }));
        return { Items: (p.Items ?? []) as ApigwIntegration[], NextToken: p.NextToken };
      }),
    createIntegration: async (spec) => (await client.send(new CreateIntegrationCommand({ ApiId: apiId, ...spec }))).IntegrationId!,
    updateIntegration: async (id, spec) => void (await client.send(new UpdateIntegrationCommand({ ApiId: apiId, IntegrationId: id, ...spec }))),
    deleteIntegration: async (id) => void (await client.send(new DeleteIntegrationCommand({ ApiId: apiId, IntegrationId: id }))),
    createRoute,
    updateRoute: async (id, route) => void (await client.send(new UpdateRouteCommand({ ApiId: apiId, RouteId: id, ...route }))),
    deleteRoute: async (id) => void (await client.send(new DeleteRouteCommand({ ApiId: apiId, RouteId: id }))),
  };
}
