/**
 * An organisation's developer portal on a domain of its own (pure): which granted domains carry a
 * portal, and what the portal takes there. Gateways send those paths to the control plane, which
 * serves the portal's pages (`/console/portal/{orgID}/`, their files under `/console/assets/`) and
 * its routes (`/portal/{orgID}/`) as it does on its own host. The organisation comes from the
 * domain's grant (an installation admin's) and the portal's settings (the organisation's users):
 * never from the request.
 */

/** A portal as the routing table names it on its host. */
export interface PortalOnHost {
  orgId: string;
  /** Where `/` leads (when no API of the host listens on `/`). */
  home: string;
  /** What the gateway sends to the control plane: a path ending in `/` is a prefix, any other one exact. */
  paths: string[];
  /** Listen paths at or under these are the portal's on this host: an API there is left out. */
  reserved: string[];
}

/** A portal's settings as the routing table reads them. */
export interface PortalDomain {
  org_id: string;
  domain: string;
  enabled: boolean;
}

function portalOnHost(orgId: string): PortalOnHost {
  const org = encodeURIComponent(orgId);
  return {
    orgId,
    home: `/console/portal/${org}/`,
    paths: [`/portal/${org}/`, `/console/portal/${org}/`, '/console/assets/', '/console/favicon.svg'],
    reserved: [`/portal/${org}`, '/console'],
  };
}

/**
 * The portals served on their own domain, by domain: those that are on and name a domain granted
 * to their organisation now (a revoked or moved grant takes the portal off the domain with it).
 */
export function portalsByDomain(portals: readonly PortalDomain[], grants: ReadonlyMap<string, string>): Map<string, PortalOnHost> {
  const byDomain = new Map<string, PortalOnHost>();
  for (const p of portals) if (p.enabled && grants.get(p.domain) === p.org_id) byDomain.set(p.domain, portalOnHost(p.org_id));
  return byDomain;
}

/** Whether a listen path is at or under a path the portal takes on its host. */
export const takenByPortal = (portal: PortalOnHost, listenPath: string): boolean =>
  portal.reserved.some((r) => listenPath === r || listenPath.startsWith(`${r}/`));
