/**
 * An organisation as one whole (issue: backup and restore): everything its export carries, read
 * from its lists, and the writes of an import. Keys come from their owner modules; an import's
 * writes create only (every item on `attribute_not_exists`), so a file can never overwrite what
 * another organisation stored, even one written between the conflict check and the write.
 */
import { canonicalJson } from '../domain/organisation-file';
import { AppError } from '../errors';
import { mapLimit } from '../lib/concurrency';
import { claimItems } from './listen-claims';
import type { Organisation } from '../schemas/organisations';
import { apiKeys, loadApi, loadOrgApis, restoreApi, type ApiRecord, type StoredApi } from './apis';
import { loadOrgAssets, restoredAssetItems, type AssetRecord } from './assets';
import { STAMP_ATTRS } from './db/audit-stamp';
import { batchGet, getItem } from './db/items';
import type { StorageKey } from './db/storage-key';
import { transactWrite, writeItems, type TxItem } from './db/transactions';
import { domainKeys, loadDomainGrants, restoredGrantItem, type DomainGrant } from './domain-grants';
import { loadOrgHooks, restoredHookItem } from './hooks';
import { keyKeys, loadOrgKeys, restoredKeyItems, type CarriedKey } from './keys';
import { loadClientRecordsOfApi, oauthKeys, restoredClientItem, type StoredClient } from './oauth-clients';
import { finishedRunRemoval } from './offboarding';
import { loadOrgSessionItem, restoredSessionItems, type OrgSessionItem } from './org-sessions';
import { countItems, loadOrganisation, orgKeys, restoredOrgItems, type CountedKind } from './organisations';
import { loadOrgPolicies, policyKey, restoredPolicyItem, type PolicyRecord } from './policies';
import { routingVersionMove } from './routing-version';
import { loadOrgUsers, restoredUserItems, userKeys, type UserRecord } from './users';
import { developerKeys, loadOrgDevelopers, restoredDeveloperItems, type DeveloperRecord } from './developers';
import { keyRequestInsert, loadOrgKeyRequests, requestKeys } from './key-requests';
import { loadCatalogue, loadPortalSettings, restoredEntryItem, restoredSettingsItem, type StoredSettings } from './portal';
import type { CatalogueEntry, KeyRequest } from '../schemas/portal';
import type { Hook } from '../schemas/hooks';
import type { QuotaScope } from '../domain/key-rules';

/** What an organisation holds that an export carries, as stored. */
export interface OrgSnapshot {
  organisation: Organisation;
  domains: DomainGrant[];
  session: OrgSessionItem | undefined;
  apis: StoredApi[];
  policies: PolicyRecord[];
  clients: StoredClient[];
  keys: CarriedKey[];
  hooks: Array<{ hook: Hook; sealed: string | undefined }>;
  templates: AssetRecord[];
  users: UserRecord[];
  portal: CarriedPortal;
}

/** The developer portal as a file carries it: settings, catalogue, developers (their hashes too) and key requests. */
interface CarriedPortal {
  settings: StoredSettings | null;
  catalogue: CatalogueEntry[];
  developers: DeveloperRecord[];
  requests: KeyRequest[];
}

async function loadCarriedPortal(orgId: string): Promise<CarriedPortal> {
  const [settings, catalogue, developers, requests] = await Promise.all([
    loadPortalSettings(orgId),
    loadCatalogue(orgId),
    loadOrgDevelopers(orgId),
    loadOrgKeyRequests(orgId),
  ]);
  return { settings: settings ?? null, catalogue, developers, requests };
}

/** Everything of the organisation an export carries (consistent reads of what its lists name), or undefined. */
export async function loadOrgSnapshot(orgId: string): Promise<OrgSnapshot | undefined> {
  const organisation = await loadOrganisation(orgId);
  if (!organisation) return undefined;
  const [domains, session, apis, policies, keys, hooks, templates, users, portal] = await Promise.all([
    loadDomainGrants(orgId),
    loadOrgSessionItem(orgId),
    loadOrgApis(orgId),
    loadOrgPolicies(orgId),
    loadOrgKeys(orgId),
    loadOrgHooks(orgId),
    loadOrgAssets(orgId),
    loadOrgUsers(orgId),
    loadCarriedPortal(orgId),
  ]);
  const clients = (await mapLimit(apis, 8, (a) => loadClientRecordsOfApi(a.api_id))).flat();
  return { organisation, domains, session, apis, policies, clients, keys, hooks, templates, users, portal };
}

/** The ids a file would take that are unique across the installation (or within the organisation, which is new). */
export interface Claimed {
  orgId: string;
  domains: string[];
  apiIds: string[];
  apiDbIds: string[];
  policyIds: string[];
  keyHashes: string[];
  clientIds: string[];
  userIds: string[];
  developerIds: string[];
  keyRequestIds: string[];
}

/** Those of the ids that are stored already, each named as `kind id`: nothing of an import is written while one is. */
export async function takenAmong(c: Claimed): Promise<string[]> {
  const asked: Array<[StorageKey, string]> = [
    [orgKeys.org(c.orgId), `organisation ${c.orgId}`],
    ...c.domains.map((d): [StorageKey, string] => [domainKeys.grant(d), `domain ${d}`]),
    ...c.apiIds.map((id): [StorageKey, string] => [apiKeys.main(id), `api_id ${id}`]),
    ...c.apiDbIds.map((id): [StorageKey, string] => [apiKeys.byDbId(id), `API database id ${id}`]),
    ...c.policyIds.map((id): [StorageKey, string] => [policyKey(id), `policy ${id}`]),
    ...c.keyHashes.map((h): [StorageKey, string] => [keyKeys.key(h), `key ${h}`]),
    ...c.clientIds.map((id): [StorageKey, string] => [oauthKeys.client(id), `OAuth client ${id}`]),
    ...c.userIds.map((id): [StorageKey, string] => [userKeys.user(id), `user ${id}`]),
    ...c.developerIds.map((id): [StorageKey, string] => [developerKeys.developer(id), `developer ${id}`]),
    ...c.keyRequestIds.map((id): [StorageKey, string] => [requestKeys.request(id), `key request ${id}`]),
  ];
  const name = new Map(asked.map(([k, n]) => [`${k.PK}\n${k.SK}`, n]));
  const found = await batchGet(
    asked.map(([k]) => k),
    true,
    ['PK', 'SK'],
  );
  return found.map((i) => name.get(`${String(i.PK)}\n${String(i.SK)}`)!).sort();
}

/** APIs checked at once (each reads its listen claims). */
const PARALLEL = 8;

/**
 * The listen claims the file's APIs would take, checked as their writes will check them (contract
 * §13) but written nowhere: each refusal's message (a path another organisation holds or nests
 * with, one no upstream reads alike).
 */
export async function claimRefusals(apis: readonly ApiRecord[]): Promise<string[]> {
  const refusals = await mapLimit(apis, PARALLEL, async (api) => {
    try {
      await claimItems(api, undefined);
      return undefined;
    } catch (e) {
      if (e instanceof AppError) return `API ${api.api_id}: ${e.message}`;
      throw e;
    }
  });
  return refusals.filter((r): r is string => r !== undefined);
}

/** What an import writes, each object's items ready (keys with their quota scopes, hooks with their sealed secrets): plain JSON, so a run can carry it. */
export interface Restore {
  organisation: Organisation;
  domains: DomainGrant[];
  session: OrgSessionItem | null;
  apis: ApiRecord[];
  policies: PolicyRecord[];
  clients: StoredClient[];
  keys: Array<{ key: CarriedKey; scopes: QuotaScope[] }>;
  hooks: Array<{ hook: Hook; sealed: string }>;
  templates: AssetRecord[];
  users: UserRecord[];
  portal: CarriedPortal;
  nowSeconds: number;
}

/**
 * One object of an import: its items, written one by one in order, its create-only item first (so
 * nothing of it, a key's quota, is written when another holds its id); or an API, written in one
 * transaction with its listen claims (contract §13).
 */
type RestoreObject = { items: TxItem[] } | { api: ApiRecord };

/** Every object of the import in the order they are written: the session, policies, APIs, then what names them. */
export function restoreObjects(r: Restore): RestoreObject[] {
  return [
    ...(r.session ? [{ items: restoredSessionItems(r.session, r.nowSeconds) }] : []),
    ...r.policies.map((p) => ({ items: [restoredPolicyItem(p)] })),
    ...r.apis.map((api) => ({ api })),
    ...r.clients.map((c) => ({ items: [restoredClientItem(c)] })),
    ...r.keys.map(({ key, scopes }) => ({ items: restoredKeyItems(key, scopes, r.nowSeconds) })),
    ...r.hooks.map(({ hook, sealed }) => ({ items: [restoredHookItem(hook, sealed)] })),
    ...r.templates.map((t) => ({ items: restoredAssetItems(t) })),
    ...r.users.map((u) => ({ items: restoredUserItems(u) })),
    // The portal after the hooks, APIs, policies and keys its settings, plans and requests name.
    ...(r.portal.settings ? [{ items: [restoredSettingsItem(r.portal.settings)] }] : []),
    ...r.portal.catalogue.map((e) => ({ items: [restoredEntryItem(e)] })),
    ...r.portal.developers.map((d) => ({ items: restoredDeveloperItems(d) })),
    ...r.portal.requests.map((q) => ({ items: [keyRequestInsert(q)] })),
  ];
}

/**
 * Objects sent at once, and the stretch of objects after which the writer says where it stands:
 * DynamoDB Local runs transactions one at a time but single writes side by side.
 */
const WRITES_IN_FLIGHT = 16;
const STRETCH = 256;

/** An item as compared with what is stored: without the stamps of who wrote it when, binaries as base64, canonical (a map comes back in any order). */
const comparable = (item: Record<string, unknown>) =>
  canonicalJson(
    Object.fromEntries(
      Object.entries(item)
        .filter(([k]) => !STAMP_ATTRS.includes(k))
        .map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v]),
    ),
  );

/**
 * Whether the write that failed is already stored as this import would store it: a stretch handed
 * over again after a crash finds what it wrote before. Another organisation's item never matches
 * (its ids or owner differ), so that failure stands.
 */
async function writtenBefore(object: RestoreObject, item?: TxItem): Promise<boolean> {
  if ('api' in object) {
    const stored = await loadApi(object.api.api_id);
    return stored?.id === object.api.id && stored.org_id === object.api.org_id;
  }
  const put = item?.op.Put?.Item as Record<string, unknown> | undefined;
  if (!put) return false;
  const stored = await getItem({ PK: String(put.PK), SK: String(put.SK) }, true);
  return stored !== undefined && comparable(stored) === comparable(put);
}

async function writeObject(object: RestoreObject): Promise<void> {
  if ('api' in object) {
    try {
      return await restoreApi(object.api);
    } catch (e) {
      if (await writtenBefore(object)) return;
      throw e;
    }
  }
  for (const item of object.items) {
    try {
      await writeItems([item]);
    } catch (e) {
      if (!(await writtenBefore(object, item))) throw e;
    }
  }
}

/**
 * Writes `objects` from `from` on, a stretch at a time, until all are written or `deadline` (ms)
 * passes: no object starts after it, and those under way finish, so the objects written are always
 * the first ones. After each stretch `reached` hears the position (every object before it stored).
 * Answers the position it stopped at. A failed write stops it at once (the caller undoes the import).
 */
export async function writeObjects(
  objects: readonly RestoreObject[],
  from: number,
  deadline: number,
  reached: (position: number) => Promise<void> = async () => {},
): Promise<number> {
  let position = from;
  while (position < objects.length && Date.now() < deadline) {
    let started = 0;
    await mapLimit(objects.slice(position, position + STRETCH), WRITES_IN_FLIGHT, async (object) => {
      if (Date.now() >= deadline) return;
      started++;
      await writeObject(object);
    });
    position += started;
    if (started) await reached(position);
  }
  return position;
}

/**
 * An import's first write (contract §9): the organisation with its domains, a finished offboarding
 * of its id removed, in one transaction, which fails whole when anything of it is taken. Then come
 * its objects (writeObjects), and last its counts (endRestore). A failure after this one is undone
 * by the caller (an offboarding of the organisation it created). `alongside` (the run's move) is
 * in the same transaction, first: a run another writer moved refuses it as a whole.
 */
export async function startRestore(r: Restore, alongside: TxItem[] = []): Promise<void> {
  await transactWrite([
    ...alongside,
    ...restoredOrgItems(r.organisation),
    finishedRunRemoval(r.organisation.id),
    ...r.domains.map(restoredGrantItem),
    ...(r.domains.length ? [routingVersionMove()] : []),
  ]);
}

/** An import's last writes, in one transaction with `alongside` (a run's end): the organisation's exact counts and one move of the routing version. */
export async function endRestore(r: Restore, alongside: TxItem[] = []): Promise<void> {
  const counts: Record<CountedKind, number> = {
    API: r.apis.length,
    POLICY: r.policies.length,
    KEY: r.keys.length,
    HOOK: r.hooks.length,
    ASSET: r.templates.length,
    USER: r.users.length,
  };
  // A portal on one of the organisation's domains is a route too.
  const routes = r.apis.length > 0 || r.portal.settings?.domain !== undefined;
  await transactWrite([...countItems(r.organisation.id, counts), ...(routes ? [routingVersionMove()] : []), ...alongside]);
}
