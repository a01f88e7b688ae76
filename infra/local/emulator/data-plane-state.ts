/**
 * One data-plane HTTP API's routes and integrations as API Gateway keeps them, in memory: what
 * the emulator's control plane changes (the reconciler's calls, shared/net/apigw-data-plane.ts) and
 * its data plane serves. Ids are API Gateway's shape (7 lowercase letters and digits).
 */
import { randomBytes } from 'node:crypto';
import type { ApigwIntegration, ApigwRoute, DataPlaneApi, IntegrationSpec, RouteWrite } from '../../../shared/domain/apigw-plan';

const newId = () => [...randomBytes(7)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');

export class DataPlaneState implements DataPlaneApi {
  readonly routeMap = new Map<string, ApigwRoute>();
  readonly integrationMap = new Map<string, ApigwIntegration>();
  /** Control-plane calls answered, by operation (what a test counts to see a run that changed nothing). */
  readonly calls: string[] = [];

  async routes(): Promise<ApigwRoute[]> {
    this.calls.push('GetRoutes');
    return [...this.routeMap.values()].map((r) => ({ ...r }));
  }

  async integrations(): Promise<ApigwIntegration[]> {
    this.calls.push('GetIntegrations');
    return [...this.integrationMap.values()].map((i) => ({ ...i, RequestParameters: { ...i.RequestParameters } }));
  }

  async createIntegration(spec: IntegrationSpec): Promise<string> {
    this.calls.push('CreateIntegration');
    const id = newId();
    this.integrationMap.set(id, { IntegrationId: id, ...spec, RequestParameters: { ...spec.RequestParameters } });
    return id;
  }

  async updateIntegration(id: string, spec: IntegrationSpec): Promise<void> {
    this.calls.push('UpdateIntegration');
    if (!this.integrationMap.has(id)) throw notFound('Integration', id);
    this.integrationMap.set(id, { IntegrationId: id, ...spec, RequestParameters: { ...spec.RequestParameters } });
  }

  async deleteIntegration(id: string): Promise<void> {
    this.calls.push('DeleteIntegration');
    if (!this.integrationMap.delete(id)) throw notFound('Integration', id);
  }

  async createRoute(route: RouteWrite): Promise<string> {
    this.calls.push('CreateRoute');
    if ([...this.routeMap.values()].some((r) => r.RouteKey === route.RouteKey)) throw conflict(`Route with key ${route.RouteKey} already exists for this API`);
    this.checkTarget(route.Target);
    const id = newId();
    this.routeMap.set(id, { RouteId: id, ...route });
    return id;
  }

  async updateRoute(id: string, route: RouteWrite): Promise<void> {
    this.calls.push('UpdateRoute');
    if (!this.routeMap.has(id)) throw notFound('Route', id);
    this.checkTarget(route.Target);
    this.routeMap.set(id, { RouteId: id, ...route });
  }

  async deleteRoute(id: string): Promise<void> {
    this.calls.push('DeleteRoute');
    if (!this.routeMap.delete(id)) throw notFound('Route', id);
  }

  /** As API Gateway: a route's target must name an integration of the API. */
  private checkTarget(target: string): void {
    const id = target.replace(/^integrations\//, '');
    if (!this.integrationMap.has(id)) throw badRequest(`Invalid integration identifier specified: ${target}`);
  }
}

/** API Gateway's errors, by the name its SDK gives them. */
const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const notFound = (what: string, id: string) => named('NotFoundException', `Invalid ${what} identifier specified ${id}`);
const conflict = (message: string) => named('ConflictException', message);
const badRequest = (message: string) => named('BadRequestException', message);
