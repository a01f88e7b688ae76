/** What every portal page reads: whose portal, its catalogue, and the signed-in developer (if any). */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Catalogue, Developer } from './client';

export interface PortalState {
  org: string;
  catalogue: Catalogue;
  developer: Developer | undefined;
  signedIn(token: string, developer: Developer): void;
  signOut(message?: string): void;
}

export const PortalContext = createContext<PortalState | null>(null);

export function usePortal(): PortalState {
  const p = useContext(PortalContext);
  if (!p) throw new Error('usePortal outside the portal');
  return p;
}

/** An address of this portal: `href(org, 'keys')` -> /console/portal/acme/keys. */
export const href = (org: string, path = ''): string => `/console/portal/${encodeURIComponent(org)}/${path}`;
