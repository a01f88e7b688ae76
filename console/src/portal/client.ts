/**
 * The developer portal's client: openapi-fetch over the same generated paths as the console, on
 * the same origin, sending the developer's session (never a dashboard key) to the portal's own
 * routes only. The session token lives in sessionStorage, per portal, for this tab only.
 */
import createClient from 'openapi-fetch';
import type { Answer, Paths } from '../api/paths';

/** Where the portal's pages live; the organisation's id is the next path segment. */
export const PORTAL_BASE = '/console/portal';

export const portalApi = createClient<Paths>({ baseUrl: '' });

/** The organisation whose portal the address names (`/console/portal/{orgID}/...`), if any. */
export const orgOfPath = (pathname: string): string | undefined => {
  const [, , , org] = pathname.split('/');
  return org ? decodeURIComponent(org) : undefined;
};

const storageKey = (org: string) => `gw-portal.session.${org}`;
export const sessionToken = (org: string): string | null => sessionStorage.getItem(storageKey(org));
export const keepSessionToken = (org: string, token: string): void => sessionStorage.setItem(storageKey(org), token);
export const forgetSessionToken = (org: string): void => sessionStorage.removeItem(storageKey(org));

portalApi.use({
  onRequest({ request }) {
    const [, first, org] = new URL(request.url).pathname.split('/');
    const token = first === 'portal' && org ? sessionToken(decodeURIComponent(org)) : null;
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
});

export type Catalogue = Answer<'/portal/{orgID}/catalogue', 'get'>;
export type CatalogueApi = Catalogue['apis'][number];
export type PublicPlan = CatalogueApi['plans'][number];
export type Developer = Answer<'/portal/{orgID}/developer', 'get'>;
