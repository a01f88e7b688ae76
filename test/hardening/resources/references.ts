/**
 * Every reference a dashboard write can make to another object, as B's request naming a given
 * id: the tenant matrix sends each one with an object of A, with the same id once A's object is
 * deleted, and with an id that never existed. Keyed by route name, so a dashboard write route
 * missing here (and from NO_REFERENCES) fails the suite.
 */
import type { Answer, Stage } from '../../support/stage';
import { assetData, importDoc, oasDoc, rightsFor, STREAMS_TYPE, streamsDoc, uid } from '../../support/fixtures';
import type { World } from '../../support/world';

export type Kind = 'api' | 'policy' | 'asset';

export interface Slot {
  route: string;
  /** Where the id goes. */
  what: string;
  kind: Kind;
  send(id: string): Promise<Answer>;
}

/** Dashboard writes that name no object besides the one in their path, and why. */
export const NO_REFERENCES: Record<string, string> = {
  assetsCreate: 'a template routes nothing; what it names is checked when an import uses it',
  assetsUpdate: 'as assetsCreate',
  assetsDelete: 'names only its path object',
  hooksCreate: 'a webhook names only its target URL',
  hooksUpdate: 'as hooksCreate',
  hooksDelete: 'names only its path object',
  hooksSigningSecret: 'names only its path object',
  hooksRedeliver: 'names only its path objects (the hook and its delivery)',
  hooksTest: 'names only its path object',
  apisDashboardDelete: 'names only its path object',
  keysDashboardDelete: 'names only its path object',
  policiesDashboardDelete: 'names only its path object',
  oauthDashboardDelete: 'names only its path objects (the API and its client)',
  portalSettingsPut: 'the portal names no object',
  portalCatalogueDelete: 'names only its path object',
  portalDevelopersUpdate: 'names only its path object',
  portalInvitationsCreate: 'an invitation names only an e-mail',
  portalKeyRequestsApprove: 'names only its path object',
  portalKeyRequestsRefuse: 'names only its path object',
};

const JSON_TYPE = { 'content-type': 'application/json' };

/** An x-gw-api-gateway fragment naming policy `id` in each place a definition can. */
const policyPlaces: Record<string, (id: string) => Record<string, unknown>> = {
  'OIDC clientToPolicyMapping': (id) => ({
    server: { authentication: { oidc: { providers: [{ issuer: 'https://idp.example', clientToPolicyMapping: [{ clientId: 'c', policyId: id }] }] } } },
  }),
  'OIDC scopeToPolicyMapping': (id) => ({ server: { authentication: { oidc: { scopes: { scopeToPolicyMapping: [{ scope: 's', policyId: id }] } } } } }),
  'JWT defaultPolicies': (id) => ({ server: { authentication: { securitySchemes: { jwt: { enabled: true, defaultPolicies: [id] } } } } }),
  'JWT scopeToPolicyMapping': (id) => ({
    server: { authentication: { securitySchemes: { jwt: { enabled: true, scopes: { scopeToPolicyMapping: [{ scope: 's', policyId: id }] } } } } },
  }),
};

export function referenceSlots(s: Stage, b: World): Slot[] {
  const keyUpdate = (body: Record<string, unknown>) =>
    s.dash(b.key, 'PUT', `/api/apis/${b.apiId}/keys/${b.gwKey}`, { basic_auth_data: { user: b.username }, ...body });
  const importWith = (query: string) =>
    s.dash(b.key, 'POST', `/api/apis/oas/import?listenPath=/ref-${b.tag}/&${query}`, JSON.stringify(importDoc('ref')), JSON_TYPE);
  /** An import through a template of B's own that carries `gw`; the template is removed again. */
  const importThroughTemplate = async (gw: Record<string, unknown>) => {
    const t = await s.dash(b.key, 'POST', '/api/assets', { name: 'ref', data: { ...assetData('ref'), 'x-gw-api-gateway': gw } });
    if (t.status !== 200) throw new Error(`template: ${t.status} ${JSON.stringify(t.body)}`);
    try {
      return await importWith(`templateID=${t.body.Meta}`);
    } finally {
      await s.dash(b.key, 'DELETE', `/api/assets/${t.body.Meta}`);
    }
  };
  const streamsWith = (gw: Record<string, unknown>) => {
    const doc = streamsDoc(b.importedApiId);
    const own = doc['x-gw-api-gateway'];
    const body = { ...doc, 'x-gw-api-gateway': { ...own, server: { ...own.server, ...(gw.server as object) } } };
    return s.dash(b.key, 'PATCH', `/api/apis/streams/${b.importedApiId}`, JSON.stringify(body), { 'content-type': STREAMS_TYPE });
  };
  // Self-service (contract §9a): each write's references, on B's own objects.
  const classicWith = (route: 'apisCreate' | 'apisUpdate', extra: Record<string, unknown>) => {
    const id = route === 'apisCreate' ? uid('ref-classic') : b.classicApiId;
    const def = { api_id: id, name: 'ref', proxy: { listen_path: `/${id}/`, target_url: 'http://upstream.example' }, ...extra };
    return route === 'apisCreate'
      ? s.dash(b.key, 'POST', '/api/apis', { api_definition: def })
      : s.dash(b.key, 'PUT', `/api/apis/${id}`, { api_definition: def });
  };
  const oasWith = (route: 'oasDashboardCreate' | 'oasDashboardUpdate', gw: Record<string, unknown>, query = '') => {
    const id = route === 'oasDashboardCreate' ? uid('ref-oas') : b.apiId;
    const doc = oasDoc(id, b.orgId);
    const own = doc['x-gw-api-gateway'];
    const info = { ...own.info, ...((gw.info as object) ?? {}) };
    const body = { ...doc, 'x-gw-api-gateway': { ...own, ...gw, info, server: { ...own.server, ...((gw.server as object) ?? {}) } } };
    return route === 'oasDashboardCreate' ? s.dash(b.key, 'POST', `/api/apis/oas${query}`, body) : s.dash(b.key, 'PUT', `/api/apis/oas/${id}${query}`, body);
  };
  const keyCreate = (body: Record<string, unknown>) => s.dash(b.key, 'POST', '/api/keys', body);
  const keyReplace = (body: Record<string, unknown>) => s.dash(b.key, 'PUT', `/api/keys/${b.gwKeyHash}`, { basic_auth_data: { user: b.username }, ...body });
  const selfService: Slot[] = [
    {
      route: 'apisCreate',
      what: 'jwt_default_policies',
      kind: 'policy',
      send: (id) => classicWith('apisCreate', { enable_jwt: true, jwt_default_policies: [id] }),
    },
    {
      route: 'apisUpdate',
      what: 'jwt_default_policies',
      kind: 'policy',
      send: (id) => classicWith('apisUpdate', { enable_jwt: true, jwt_default_policies: [id] }),
    },
    ...(['apisCreate', 'apisUpdate'] as const).map(
      (route): Slot => ({
        route,
        what: 'definition.versions',
        kind: 'api',
        send: (id) => classicWith(route, { definition: { enabled: true, name: 'v1', default: 'v1', versions: { v2: id } } }),
      }),
    ),
    ...(['oasDashboardCreate', 'oasDashboardUpdate'] as const).flatMap((route): Slot[] => [
      { route, what: 'base_api_id', kind: 'api', send: (id) => oasWith(route, {}, `?base_api_id=${id}&new_version_name=v9`) },
      ...Object.entries(policyPlaces).map(([what, gw]): Slot => ({ route, what, kind: 'policy', send: (id) => oasWith(route, gw(id)) })),
    ]),
    // An update keeps the stored version list (only version writes change it), so only a create names version APIs.
    {
      route: 'oasDashboardCreate',
      what: 'versioning.versions',
      kind: 'api',
      send: (id) => oasWith('oasDashboardCreate', { info: { versioning: { enabled: true, name: 'v1', default: 'v1', versions: [{ id, name: 'v2' }] } } }),
    },
    { route: 'keysDashboardCreate', what: 'access_rights', kind: 'api', send: (id) => keyCreate({ access_rights: rightsFor(b.apiId, id) }) },
    {
      route: 'keysDashboardCreate',
      what: 'apply_policies',
      kind: 'policy',
      send: (id) => keyCreate({ access_rights: rightsFor(b.apiId), apply_policies: [id] }),
    },
    {
      route: 'keysDashboardCreate',
      what: 'apply_policy_id',
      kind: 'policy',
      send: (id) => keyCreate({ access_rights: rightsFor(b.apiId), apply_policy_id: id }),
    },
    { route: 'keysDashboardUpdate', what: 'access_rights', kind: 'api', send: (id) => keyReplace({ access_rights: rightsFor(b.apiId, id) }) },
    {
      route: 'keysDashboardUpdate',
      what: 'apply_policies',
      kind: 'policy',
      send: (id) => keyReplace({ access_rights: rightsFor(b.apiId), apply_policies: [id] }),
    },
    {
      route: 'policiesDashboardCreate',
      what: 'access_rights',
      kind: 'api',
      send: (id) => s.dash(b.key, 'POST', '/api/portal/policies', { name: 'ref', access_rights: rightsFor(b.apiId, id) }),
    },
    {
      route: 'policiesDashboardUpdate',
      what: 'access_rights',
      kind: 'api',
      send: (id) => s.dash(b.key, 'PUT', `/api/portal/policies/${b.policyId}`, { name: 'ref', access_rights: rightsFor(b.apiId, id) }),
    },
    {
      route: 'oauthDashboardCreate',
      what: 'policy_id',
      kind: 'policy',
      send: (id) => s.dash(b.key, 'POST', `/api/apis/oauth/${b.apiId}`, { redirect_uri: 'https://app.example/cb', policy_id: id }),
    },
    {
      route: 'oauthDashboardUpdate',
      what: 'policy_id',
      kind: 'policy',
      send: (id) => s.dash(b.key, 'PUT', `/api/apis/oauth/${b.apiId}/${b.clientId}`, { redirect_uri: 'https://app.example/cb', policy_id: id }),
    },
    {
      route: 'portalCataloguePut',
      what: "a plan's policy_id",
      kind: 'policy',
      send: (id) => s.dash(b.key, 'PUT', `/api/portal/catalogue/${b.apiId}`, { plans: [{ id: 'ref', name: 'ref', policy_id: id, approval: 'auto' }] }),
    },
  ];
  return [
    ...selfService,
    { route: 'apiKeysUpdate', what: 'access_rights', kind: 'api', send: (id) => keyUpdate({ access_rights: rightsFor(b.apiId, id) }) },
    {
      route: 'apiKeysUpdate',
      what: 'apply_policies',
      kind: 'policy',
      send: (id) => keyUpdate({ access_rights: rightsFor(b.apiId), apply_policies: [id] }),
    },
    {
      route: 'apiKeysUpdate',
      what: 'apply_policy_id',
      kind: 'policy',
      send: (id) => keyUpdate({ access_rights: rightsFor(b.apiId), apply_policy_id: id }),
    },
    { route: 'oasImport', what: 'templateID', kind: 'asset', send: (id) => importWith(`templateID=${id}`) },
    { route: 'oasImport', what: 'base_api_id', kind: 'api', send: (id) => importWith(`base_api_id=${id}&new_version_name=v9`) },
    {
      route: 'oasImport',
      what: "a template's versioning.versions",
      kind: 'api',
      send: (id) => importThroughTemplate({ info: { versioning: { enabled: true, name: 'v1', default: 'v1', versions: [{ id, name: 'v2' }] } } }),
    },
    ...Object.entries(policyPlaces).map(
      ([what, gw]): Slot => ({ route: 'oasImport', what: `a template's ${what}`, kind: 'policy', send: (id) => importThroughTemplate(gw(id)) }),
    ),
    ...Object.entries(policyPlaces).map(([what, gw]): Slot => ({ route: 'streamsPatch', what, kind: 'policy', send: (id) => streamsWith(gw(id)) })),
  ];
}

/** A fresh object of `kind` in A (its id as references name it), and how to delete it. */
export async function makeObject(s: Stage, a: World, kind: Kind): Promise<{ id: string; remove(): Promise<void> }> {
  const must = async (p: Promise<Answer>, what: string) => {
    const r = await p;
    if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  };
  if (kind === 'api') {
    const id = uid('ref-api');
    await must(s.gw('POST', '/gw/apis/oas', oasDoc(id, a.orgId)), 'API');
    return { id, remove: async () => void (await must(s.gw('DELETE', `/gw/apis/${id}`), 'API delete')) };
  }
  if (kind === 'policy') {
    const id = uid('ref-pol');
    await must(s.gw('POST', '/gw/policies', { id, name: 'ref', org_id: a.orgId, access_rights: rightsFor(a.apiId) }), 'policy');
    return { id, remove: async () => void (await must(s.gw('DELETE', `/gw/policies/${id}`), 'policy delete')) };
  }
  const id = uid('ref-asset');
  const r = await must(s.dash(a.key, 'POST', '/api/assets', { id, name: 'ref', data: assetData('ref') }), 'asset');
  return { id, remove: async () => void (await must(s.dash(a.key, 'DELETE', `/api/assets/${r.body.Meta}`), 'asset delete')) };
}
