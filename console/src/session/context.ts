/** The signed-in user for every page: who it is, what it may use, and the way out. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Answer } from '../api/paths';
import type { Group, Level } from './permissions';

export type Me = Answer<'/api/users/me', 'get'>;

export interface Session {
  user: Me;
  can(group: Group, level: Level): boolean;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in page');
  return s;
}
