import { permissionOf, type RouteDef } from '../shared/route-def';
import { routeList } from '../shared/routes';

const GROUP = { public: 'none', dashboard: 'D', gateway: 'G', admin: 'A' } as const;

/** The credential, and for a dashboard route the user_permissions group and level it needs. */
function credential(r: RouteDef): string {
  const p = permissionOf(r);
  if (r.permission === 'none') return `${GROUP[r.group]} (any user)`;
  return p ? `${GROUP[r.group]} (${p.group}: ${p.level})` : GROUP[r.group];
}

/** The route's summary, then each status it declares with its meaning (the entry's own, as the document lists them first). */
function what(r: RouteDef): string {
  const statuses = Object.entries(r.statuses ?? {}).map(([status, meaning]) => `${status} ${meaning}`);
  return [r.summary, ...statuses].join('; ');
}

/** The README's routes table, rendered from the route table so the two cannot drift. */
export function routesMarkdown(): string {
  const rows = routeList.map((r) => `| ${r.method} | \`${r.path}\` | ${credential(r)} | ${what(r).replace(/\|/g, '\\|')} |`);
  return ['| Method | Path | Cred. | What |', '|---|---|---|---|', ...rows].join('\n');
}

export const START = '<!-- routes:start (npm run readme:routes) -->';
export const END = '<!-- routes:end -->';
