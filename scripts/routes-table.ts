import { permissionOf, type RouteDef } from '../shared/route-def';
import { routeList } from '../shared/routes';
import { PERMISSION_GROUPS, type PermissionGroup } from '../shared/schemas/permissions';
import { gatewayMembersMarkdown, MEMBERS_DOCUMENT, MEMBERS_END, MEMBERS_START } from './gateway-members-table';

const GROUP = { public: 'none', dashboard: 'D', gateway: 'G', admin: 'A', developer: 'P' } as const;

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

/** The routes table of docs/reference/routes.md, rendered from the route table so the two cannot drift. */
export function routesMarkdown(): string {
  const rows = routeList.map((r) => `| ${r.method} | \`${r.path}\` | ${credential(r)} | ${what(r).replace(/\|/g, '\\|')} |`);
  return ['| Method | Path | Cred. | What |', '|---|---|---|---|', ...rows].join('\n');
}

/** The documents that hold the routes and the permissions tables (npm run generate rewrites them there). */
export const ROUTES_DOCUMENT = 'docs/reference/routes.md';
export const PERMISSIONS_DOCUMENT = 'docs/using/permissions.md';
export const START = '<!-- routes:start (npm run generate) -->';
export const END = '<!-- routes:end -->';

/** What each permission group covers, in words (the routes come from the route table). */
const GROUP_MEANING: Record<PermissionGroup, string> = {
  apis: 'API definitions, the OAS import, the streams patch',
  keys: 'keys (by hash) and their access to an API',
  policies: 'policies',
  hooks: 'webhooks, their signing secrets, delivery logs, redelivery and test',
  assets: 'templates',
  oauth: "OAuth clients of the organisation's APIs",
  analytics: 'key activity and usage over time',
  users: "the organisation's users",
  audit: "the organisation's audit trail",
  portal: 'the developer portal: its settings, catalogue, developers, invitations and key requests',
};

const routeNames = (rs: RouteDef[]) => (rs.length ? rs.map((r) => `\`${r.method} ${r.path}\``).join(', ') : 'none');

/**
 * The permissions table of docs/using/permissions.md, rendered from the route table: per group, the dashboard routes
 * that need read (read or write grants them) and those that need write.
 */
export function permissionsMarkdown(): string {
  const rows = PERMISSION_GROUPS.map((g) => {
    const of = routeList.filter((r) => permissionOf(r)?.group === g);
    const at = (level: 'read' | 'write') => routeNames(of.filter((r) => r.access === level));
    return `| \`${g}\` | ${GROUP_MEANING[g]} | ${at('read')} | ${at('write')} |`;
  });
  return ['| Group | What | Needs read (or write) | Needs write |', '|---|---|---|---|', ...rows].join('\n');
}

export const PERMISSIONS_START = '<!-- permissions:start (npm run generate) -->';
export const PERMISSIONS_END = '<!-- permissions:end -->';

/** Each document that holds generated tables, with its text as generated now (npm run generate writes them; a test compares). */
export function generatedSections(read: (file: string) => string): Array<{ path: string; text: string }> {
  const routes = withSection(read(ROUTES_DOCUMENT), START, END, routesMarkdown());
  const permissions = withSection(read(PERMISSIONS_DOCUMENT), PERMISSIONS_START, PERMISSIONS_END, permissionsMarkdown());
  const members = withSection(read(MEMBERS_DOCUMENT), MEMBERS_START, MEMBERS_END, gatewayMembersMarkdown());
  return [
    { path: ROUTES_DOCUMENT, text: routes },
    { path: PERMISSIONS_DOCUMENT, text: permissions },
    { path: MEMBERS_DOCUMENT, text: members },
  ];
}

/** `text` with what lies between `start` and `end` replaced by `body`. */
export function withSection(text: string, start: string, end: string, body: string): string {
  const [head, rest] = text.split(start);
  const tail = rest?.split(end)[1];
  if (head === undefined || tail === undefined) throw new Error(`no ${start} ... ${end} markers`);
  return `${head}${start}\n${body}\n${end}${tail}`;
}

/** The text between `start` and `end`, trimmed (undefined without the markers). */
export const sectionOf = (text: string, start: string, end: string): string | undefined => text.split(start)[1]?.split(end)[0]?.trim();
