import { routeList } from '../shared/routes';

const GROUP = { public: 'none', dashboard: 'D', gateway: 'G', admin: 'A' } as const;

/** The README's routes table, rendered from the route table so the two cannot drift. */
export function routesMarkdown(): string {
  const rows = routeList.map(
    (r) => `| ${r.method} | \`${r.path}\` | ${GROUP[r.group]} | ${r.summary.replace(/\|/g, '\\|')} |`,
  );
  return ['| Method | Path | Cred. | What |', '|---|---|---|---|', ...rows].join('\n');
}

export const START = '<!-- routes:start (npm run readme:routes) -->';
export const END = '<!-- routes:end -->';
