/**
 * Owned domains on the API Gateway data plane (docs/operating/data-plane.md): each granted domain
 * with routes and a certificate gets a per-domain HTTP API (its execute-api endpoint off), the
 * project's Lambda authorizer on it, a custom domain name and one API mapping to its `$default`
 * stage; its routes come from the same plan as the shared API's. A domain revoked, left without
 * APIs or without a certificate loses its mapping, the domain name the reconciler made, and its
 * API. Every step reads before it writes, so a run after a crash (an API made, its mapping not yet)
 * finishes the work, and two runs side by side converge: a duplicate API is removed by the next.
 */
import { dataPlaneAuthorizer, planDomains, type DataPlaneAccount, type ServedDomain } from '../domain/apigw-domains';
import type { ApigwPlan } from '../domain/apigw-plan';
import { errorField, logger } from '../observability/logger';
import { applyRoutes } from './data-plane-routes';
import type { RoutingTable } from './routing';

export interface OwnedDomains {
  account: DataPlaneAccount;
  /** The data-plane authorizer's invocation URI (`arn:aws:apigateway:<region>:lambda:path/.../invocations`). */
  authorizerUri: string;
  /** Names the per-domain APIs (`<prefix>-<host>`). */
  namePrefix: string;
  /** The console's origin, where a domain that carries its organisation's developer portal sends the portal's paths. */
  portalOrigin?: string;
}

/** The per-domain API's authorizer: the one invoking the data-plane function, made when missing. */
async function authorizerOf(d: OwnedDomains, apiId: string): Promise<string> {
  const found = (await d.account.authorizers(apiId)).find((a) => a.AuthorizerUri === d.authorizerUri);
  return found?.AuthorizerId ?? d.account.createAuthorizer(apiId, dataPlaneAuthorizer(d.authorizerUri));
}

/** One served domain: its API, authorizer, routes, domain name and mapping, each made or changed only when it differs. */
async function serveDomain(d: OwnedDomains, table: RoutingTable, served: ServedDomain): Promise<{ changes: number; skipped: ApigwPlan['skipped'] }> {
  const { account } = d;
  const apiId = served.apiId ?? (await account.createDomainApi(served.host, `${d.namePrefix}-${served.host}`.slice(0, 128)));
  let changes = served.apiId ? 0 : 1;
  const authorizerId = await authorizerOf(d, apiId);
  // Routes before the mapping: a domain never answers from an API that is still empty.
  const routes = await applyRoutes(account.api(apiId), table, served.host, authorizerId, d.portalOrigin);
  changes += routes.changes;
  if (served.domainName === 'create') await account.createDomainName(served.host, served.certificateArn!);
  if (served.domainName === 'update') await account.updateDomainName(served.host, served.certificateArn!);
  changes += served.domainName === 'keep' ? 0 : 1;
  const mappings = await account.apiMappings(served.host);
  for (const m of mappings) {
    if (m.apiId === apiId) continue;
    await account.deleteApiMapping(served.host, m.id);
    changes++;
  }
  if (!mappings.some((m) => m.apiId === apiId)) {
    // Made here, not with the API: a run that crashed between the two makes it now.
    await account.ensureStage(apiId);
    await account.createApiMapping(served.host, apiId);
    changes++;
  }
  return { changes, skipped: routes.skipped };
}

export async function reconcileDomains(d: OwnedDomains, table: RoutingTable): Promise<{ changes: number; skipped: ApigwPlan['skipped'] }> {
  const { account } = d;
  const [certificates, domainNames, apis] = await Promise.all([account.certificates(), account.domainNames(), account.domainApis()]);
  const plan = planDomains({ model: table, certificates, domainNames, apis, servesPortals: d.portalOrigin !== undefined });

  let changes = 0;
  const skipped = [...plan.skipped];
  for (const served of plan.serve) {
    try {
      const done = await serveDomain(d, table, served);
      changes += done.changes;
      skipped.push(...done.skipped);
    } catch (e) {
      // One domain API Gateway refuses (its custom domain name quota, a certificate gone) or that
      // failed half-way never holds back the others: its APIs are reported, and the next run retries it.
      const message = e instanceof Error ? e.message : String(e);
      logger.warn('data plane: owned domain not applied', { host: served.host, error: errorField(e) });
      const routes = table.hosts.find((h) => h.host === served.host)?.routes ?? [];
      for (const r of routes)
        skipped.push({ apiId: r.apiId, listenPath: r.listenPath, reason: `${served.host} not applied yet (${message.slice(0, 300)}); the next run retries` });
    }
  }
  const names = new Set(domainNames.map((n) => n.name));
  for (const gone of plan.removeApis) {
    // Its mapping first: API Gateway keeps a mapped API.
    if (names.has(gone.host)) {
      for (const m of await account.apiMappings(gone.host)) if (m.apiId === gone.apiId) await account.deleteApiMapping(gone.host, m.id);
    }
    await account.deleteApi(gone.apiId);
    changes++;
  }
  for (const name of plan.removeDomainNames) {
    for (const m of await account.apiMappings(name)) await account.deleteApiMapping(name, m.id);
    await account.deleteDomainName(name);
    changes++;
  }
  return { changes, skipped };
}
