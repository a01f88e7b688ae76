/** What the API pages read from a listing entry's classic definition (every stored API has one). */
import type { Answer } from '../../api/paths';
import { member, text } from '../../format';

export type ApiEntry = Answer<'/api/apis', 'get'>['apis'][number];

export const apiIdOf = (e: ApiEntry): string => text(e.api_definition, 'api_id');
export const apiNameOf = (e: ApiEntry): string => text(e.api_definition, 'name') || apiIdOf(e);
export const listenPathOf = (e: ApiEntry): string => text(e.api_definition, 'proxy', 'listen_path');
export const upstreamOf = (e: ApiEntry): string => text(e.api_definition, 'proxy', 'target_url');
export const isActive = (e: ApiEntry): boolean => member(e.api_definition)?.active !== false;
export const isOas = (e: ApiEntry): boolean => e.oas !== undefined;

/** Whether an API matches a search: its name, id or listen path contains the words, ignoring case. */
export const matchesSearch = (e: ApiEntry, q: string): boolean => {
  const hay = `${apiNameOf(e)} ${apiIdOf(e)} ${listenPathOf(e)}`.toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
};

/** The versions of a base API: `definition.versions` maps a version name to its API id. */
export function versionsOf(e: ApiEntry): {
  enabled: boolean;
  defaultName: string;
  location: string;
  key: string;
  versions: Array<{ name: string; apiId: string }>;
} {
  const def = member(e.api_definition, 'definition') ?? {};
  const versions = member(def, 'versions') ?? {};
  return {
    enabled: def.enabled === true,
    defaultName: text(def, 'default'),
    location: text(def, 'location'),
    key: text(def, 'key'),
    versions: Object.entries(versions).map(([name, apiId]) => ({ name, apiId: String(apiId) })),
  };
}
