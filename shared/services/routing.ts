/**
 * The routing table gateways follow (issue "definitions drive traffic"): the gateway model of
 * every stored definition, domain grant and portal on a domain (shared/domain/gateway-model.ts), and the routing
 * version a follower polls to learn, with one cheap read, whether the table changed.
 */
import { gatewayModel, type GatewayModel } from '../domain/gateway-model';
import { loadApis } from '../store/apis';
import { loadEveryDomainGrant } from '../store/domain-grants';
import { loadEveryClaim } from '../store/listen-claims';
import { loadPortalDomains } from '../store/portal';
import { loadRoutingVersion } from '../store/routing-version';

/** GET /gw/routing/version: a sum of a few counters that every change of a definition or a grant moves. */
export const routingVersion = loadRoutingVersion;

/** The gateway model at a routing version. */
export type RoutingTable = GatewayModel & { version: number; changed_at: string | null };

/**
 * GET /gw/routing: the table at `version`, read after it, so a table answered with version N
 * holds every change up to N (changes after N may show too; the next poll then reads N+k and
 * fetches again). Its reads are of indexes, which DynamoDB updates within moments of a write:
 * a follower refreshes the whole table now and then, whatever the version says (gwctl does).
 */
export async function routingTable(): Promise<RoutingTable> {
  const { version, changed_at } = await loadRoutingVersion();
  const [claims, grants, portals] = await Promise.all([loadEveryClaim(), loadEveryDomainGrant(), loadPortalDomains()]);
  const apis = await loadApis(claims.map((c) => c.api_id));
  return { version, changed_at, ...gatewayModel(apis, grants, portals) };
}
