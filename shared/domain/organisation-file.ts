/**
 * The organisation file's pure rules (shared/schemas/organisation-file.ts): its canonical text, so
 * that an export of what an import wrote is the same bytes, and what makes a file inconsistent
 * before anything of it is looked up.
 */
import type { ErrorDetail } from '../errors';
import type { OrganisationFile } from '../schemas/organisation-file';

/** JSON with every object's members in code-point order and no spaces: one text per value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  });
}

/** The members of a stored object that belong to the installation that wrote it, never carried. */
export function withoutInstallation<T extends Record<string, unknown>>(o: T): T {
  const { version: _v, offboarding_since: _o, ...rest } = o;
  return rest as T;
}

/** `items` ordered by `idOf`, so a file lists each kind the same way whatever order its reads answered in. */
export const byId = <T>(items: readonly T[], idOf: (t: T) => string): T[] => [...items].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));

type Owned = { org_id: string };

/** An object of a section that is not the file's organisation's, each a detail. */
const foreign = (section: string, items: readonly Owned[], org: string): ErrorDetail[] =>
  items.flatMap((o, i) => (o.org_id === org ? [] : [{ path: `${section}[${i}].org_id`, message: `must be the file's organisation ${org}` }]));

/** An id a section lists twice, each repeat a detail. */
function repeated(section: string, ids: readonly string[], what: string): ErrorDetail[] {
  const seen = new Set<string>();
  const out: ErrorDetail[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id)) out.push({ path: `${section}[${i}]`, message: `${what} ${id} is in the file twice` });
    seen.add(id);
  });
  return out;
}

/**
 * Where a file contradicts itself: an object of another organisation than the file's, an id twice,
 * a client of an API the file does not carry. Each is a detail of the 400.
 */
export function fileProblems(file: OrganisationFile): ErrorDetail[] {
  const org = String(file.organisation.id);
  const problems: ErrorDetail[] = [];
  const owned = (section: string, items: readonly Owned[]) => problems.push(...foreign(section, items, org));
  owned('domains', file.domains);
  owned('apis', file.apis);
  owned('policies', file.policies);
  owned('oauth_clients', file.oauth_clients);
  owned('webhooks', file.webhooks);
  owned('templates', file.templates);
  owned('users', file.users);
  owned(
    'keys',
    file.keys.map((k) => k.session),
  );
  if (file.organisation_session && file.organisation_session.session.org_id !== org) {
    problems.push({ path: 'organisation_session.session.org_id', message: `must be the file's organisation ${org}` });
  }
  const unique = (section: string, ids: readonly string[], what: string) => problems.push(...repeated(section, ids, what));
  unique(
    'domains',
    file.domains.map((d) => d.domain),
    'domain',
  );
  unique(
    'apis',
    file.apis.map((a) => a.api_id),
    'api_id',
  );
  unique(
    'apis',
    file.apis.map((a) => a.id),
    'database id',
  );
  unique(
    'policies',
    file.policies.map((p) => p.id),
    'policy id',
  );
  unique(
    'oauth_clients',
    file.oauth_clients.map((c) => c.client_id),
    'client_id',
  );
  unique(
    'keys',
    file.keys.map((k) => k.session.key_hash),
    'key hash',
  );
  unique(
    'webhooks',
    file.webhooks.map((h) => h.id),
    'webhook id',
  );
  unique(
    'templates',
    file.templates.map((t) => t._id),
    'template',
  );
  unique(
    'users',
    file.users.map((u) => u.id),
    'user id',
  );
  unique(
    'users',
    file.users.map((u) => u.email_lower),
    'e-mail',
  );
  unique(
    'keys',
    file.keys.flatMap((k) => k.username ?? []),
    'basic-auth user name',
  );
  unique(
    'templates',
    file.templates.flatMap((t) => t.id ?? []),
    'template id',
  );
  const apis = new Set(file.apis.map((a) => a.api_id));
  file.oauth_clients.forEach((c, i) => {
    if (!apis.has(c.api_id)) problems.push({ path: `oauth_clients[${i}].api_id`, message: `API ${c.api_id} is not in the file` });
  });
  return [...problems, ...portalProblems(file, org, apis)];
}

/** The portal's part: its objects the file's organisation's, each id once, and everything they name in the file. */
function portalProblems(file: OrganisationFile, org: string, apis: ReadonlySet<string>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const missing = (path: string, what: string) => problems.push({ path, message: `${what} is not in the file` });
  const catalogue = file.catalogue ?? [];
  const developers = file.developers ?? [];
  const requests = file.key_requests ?? [];
  const settings = file.portal_settings;
  problems.push(...foreign('catalogue', catalogue, org), ...foreign('developers', developers, org), ...foreign('key_requests', requests, org));
  if (settings && settings.org_id !== org) problems.push({ path: 'portal_settings.org_id', message: `must be the file's organisation ${org}` });
  const lists: Array<[string, string[], string]> = [
    ['catalogue', catalogue.map((e) => e.api_id), 'api_id'],
    ['developers', developers.map((d) => d.id), 'developer id'],
    ['developers', developers.map((d) => d.email_lower), 'e-mail'],
    ['key_requests', requests.map((q) => q.id), 'key request id'],
  ];
  for (const [section, ids, what] of lists) problems.push(...repeated(section, ids, what));
  const policies = new Set(file.policies.map((p) => p.id));
  catalogue.forEach((e, i) => {
    if (!apis.has(e.api_id)) missing(`catalogue[${i}].api_id`, `API ${e.api_id}`);
    e.plans.forEach((p, j) => policies.has(p.policy_id) || missing(`catalogue[${i}].plans[${j}].policy_id`, `policy ${p.policy_id}`));
  });
  const developerIds = new Set(developers.map((d) => d.id));
  const keys = new Set(file.keys.map((k) => k.session.key_hash));
  requests.forEach((q, i) => {
    if (!developerIds.has(q.developer_id)) missing(`key_requests[${i}].developer_id`, `developer ${q.developer_id}`);
    if (q.key_hash !== undefined && !keys.has(q.key_hash)) missing(`key_requests[${i}].key_hash`, `key ${q.key_hash}`);
  });
  const domain = settings?.domain;
  if (typeof domain === 'string' && !file.domains.some((d) => d.domain === domain)) missing('portal_settings.domain', `domain ${domain}`);
  const hooks = new Set(file.webhooks.map((h) => h.id));
  const hookIds = Array.isArray(settings?.hook_ids) ? (settings.hook_ids as unknown[]) : [];
  hookIds.forEach((id, i) => hooks.has(String(id)) || missing(`portal_settings.hook_ids[${i}]`, `webhook ${String(id)}`));
  return problems;
}

/** How many objects of each kind a file carries. */
export function fileCounts(file: OrganisationFile): Record<string, number> {
  return {
    domains: file.domains.length,
    apis: file.apis.length,
    policies: file.policies.length,
    oauth_clients: file.oauth_clients.length,
    keys: file.keys.length,
    webhooks: file.webhooks.length,
    templates: file.templates.length,
    users: file.users.length,
    portal_settings: file.portal_settings ? 1 : 0,
    catalogue: file.catalogue?.length ?? 0,
    developers: file.developers?.length ?? 0,
    key_requests: file.key_requests?.length ?? 0,
  };
}
