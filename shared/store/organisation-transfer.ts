/**
 * An organisation as one whole (issue: backup and restore): everything its export carries, read
 * from its lists, and the writes of an import. Keys come from their owner modules; an import's
 * writes create only (every item on `attribute_not_exists`), so a file can never overwrite what
 * another organisation stored, even one written between the conflict check and the write.
 */
import { AppError, PayloadTooLarge } from '../errors';
import { mapLimit } from '../lib/concurrency';
import { claimItems } from './listen-claims';
import type { Organisation } from '../schemas/organisations';
import { apiKeys, loadOrgApis, restoreApi, type ApiRecord, type StoredApi } from './apis';
import { loadOrgAssets, restoredAssetItems, type AssetRecord } from './assets';
import { batchGet } from './db/items';
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
}

/** Everything of the organisation an export carries (consistent reads of what its lists name), or undefined. */
export async function loadOrgSnapshot(orgId: string): Promise<OrgSnapshot | undefined> {
  const organisation = await loadOrganisation(orgId);
  if (!organisation) return undefined;
  const [domains, session, apis, policies, keys, hooks, templates, users] = await Promise.all([
    loadDomainGrants(orgId),
    loadOrgSessionItem(orgId),
    loadOrgApis(orgId),
    loadOrgPolicies(orgId),
    loadOrgKeys(orgId),
    loadOrgHooks(orgId),
    loadOrgAssets(orgId),
    loadOrgUsers(orgId),
  ]);
  const clients = (await mapLimit(apis, 8, (a) => loadClientRecordsOfApi(a.api_id))).flat();
  return { organisation, domains, session, apis, policies, clients, keys, hooks, templates, users };
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
  ];
  const name = new Map(asked.map(([k, n]) => [`${k.PK}\n${k.SK}`, n]));
  const found = await batchGet(
    asked.map(([k]) => k),
    true,
    ['PK', 'SK'],
  );
  return found.map((i) => name.get(`${String(i.PK)}\n${String(i.SK)}`)!).sort();
}

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

/** What an import writes, each object's items ready (keys with their quota scopes, hooks with their sealed secrets). */
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
  nowSeconds: number;
  /** When the writes must stop (ms since the epoch), so a request never ends half-way without its undo. */
  deadline: number;
}

/** APIs written at once (each reads its listen claims, then writes one transaction). */
const PARALLEL = 8;

/**
 * The other objects, 16 at a time, each item its own write: DynamoDB Local runs transactions one at
 * a time but single writes side by side, and an object half-written is undone with the rest. An
 * object's items go in order, its create-only item first, so nothing of it (a key's quota) is
 * written when another holds its id. Past `deadline` (ms) no further write is sent, and the import stops.
 */
const WRITES_IN_FLIGHT = 16;
const writeAll = (objects: readonly TxItem[][], deadline: number) =>
  mapLimit(objects, WRITES_IN_FLIGHT, async (items) => {
    for (const item of items) {
      checkDeadline(deadline);
      await writeItems([item]);
    }
  });

function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new PayloadTooLarge('the file is larger than one request can import in time (docs/reference/limits.md)');
}

/**
 * An import's writes, in order: first (startRestore) the organisation with its domains, a finished
 * offboarding of its id removed, in one transaction, which fails whole when anything of it is taken;
 * then (finishRestore) its session, its objects, many writes at a time, APIs with their
 * listen claims (contract §13), and last its counts. A failure there stops at once; the caller
 * undoes what was written (an offboarding of the organisation it created).
 */
export async function startRestore(r: Restore): Promise<void> {
  await transactWrite([
    ...restoredOrgItems(r.organisation),
    finishedRunRemoval(r.organisation.id),
    ...r.domains.map(restoredGrantItem),
    ...(r.domains.length ? [routingVersionMove()] : []),
  ]);
}

/** The rest of an import, once startRestore stored its organisation. */
export async function finishRestore(r: Restore): Promise<void> {
  const orgId = r.organisation.id;
  if (r.session) await transactWrite(restoredSessionItems(r.session, r.nowSeconds));
  await writeAll(
    r.policies.map((p) => [restoredPolicyItem(p)]),
    r.deadline,
  );
  await mapLimit(r.apis, PARALLEL, (api) => {
    checkDeadline(r.deadline);
    return restoreApi(api);
  });
  await writeAll(
    [
      ...r.clients.map((c) => [restoredClientItem(c)]),
      ...r.keys.map(({ key, scopes }) => restoredKeyItems(key, scopes, r.nowSeconds)),
      ...r.hooks.map(({ hook, sealed }) => [restoredHookItem(hook, sealed)]),
      ...r.templates.map(restoredAssetItems),
      ...r.users.map(restoredUserItems),
    ],
    r.deadline,
  );
  const counts: Record<CountedKind, number> = {
    API: r.apis.length,
    POLICY: r.policies.length,
    KEY: r.keys.length,
    HOOK: r.hooks.length,
    ASSET: r.templates.length,
    USER: r.users.length,
  };
  await transactWrite([...countItems(orgId, counts), ...(r.apis.length ? [routingVersionMove()] : [])]);
}
