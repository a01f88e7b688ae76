/**
 * Moving an organisation between installations (contract §9 "Export and import"): its export as
 * one canonical file, and an import that checks the whole file against what is stored before it
 * writes anything, then writes only new items. Counters restart (live quotas start a fresh
 * window), access keys and analytics are not carried.
 */
import { BadRequest, Conflict, NotFound, Unprocessable, AppError } from '../errors';
import { quotaScopes } from '../domain/key-rules';
import { listenClaimOf } from '../domain/listen-paths';
import { byId, canonicalJson, fileCounts, fileProblems, withoutInstallation } from '../domain/organisation-file';
import { applyPolicies } from '../domain/policies';
import { nowSeconds } from '../domain/quota';
import { WEBHOOK_LIMITS } from '../limits';
import { FILE_FORMAT, FILE_VERSION, type OrganisationFile } from '../schemas/organisation-file';
import type { KeySession } from '../schemas/keys';
import type { Organisation } from '../schemas/organisations';
import type { Policy } from '../schemas/policies';
import type { ApiRecord } from '../store/apis';
import type { AssetRecord } from '../store/assets';
import type { CarriedKey } from '../store/keys';
import type { StoredClient } from '../store/oauth-clients';
import { loadRun } from '../store/offboarding';
import type { PolicyRecord } from '../store/policies';
import { claimImportRun, ImportRunMoved, moveImportRun, storeImportWrites } from '../store/import-runs';
import { claimRefusals, loadOrgSnapshot, restoreObjects, takenAmong, writeObjects, type Restore } from '../store/organisation-transfer';
import type { UserRecord } from '../store/users';
import { openSigningSecret, sealedSecret } from './hooks';
import { endImport, failImport, startImport } from './import-runs';

type Obj = Record<string, unknown>;

/**
 * How long an import's request writes, from its start: the function's 29 s (API Gateway's limit)
 * less a last stretch of writes and the hand-over. The rest is written in the background
 * (shared/services/import-runs.ts).
 */
const IMPORT_REQUEST_MS = 20_000;
/** How long the request holds its run from its start: past the function's 29 s, so a worker never takes over a request still running. */
const IMPORT_HOLD_MS = 30_000;
const strip = <T extends Obj>(o: T): T => withoutInstallation(o);

/**
 * The organisation's export file, canonical (members sorted, each kind ordered by id): exported
 * again from another installation after an import, it is the same text. `secrets` carries each
 * webhook's signing secret in clear; without it a hook carries none and the import makes a new one.
 */
export async function exportOrganisation(orgId: string, secrets: boolean): Promise<string> {
  const s = await loadOrgSnapshot(orgId);
  if (!s) throw new NotFound(`organisation ${orgId} not found`);
  if ((s.organisation as Obj).offboarding_since) throw new Conflict(`organisation ${orgId} is being offboarded`);
  const hooks = await Promise.all(
    s.hooks.map(async ({ hook, sealed }) => {
      const secret = secrets ? await openSigningSecret(orgId, hook.id, sealed) : undefined;
      return { ...strip(hook), ...(secret ? { signing_secret: secret } : {}) };
    }),
  );
  const file = {
    format: FILE_FORMAT,
    version: FILE_VERSION,
    organisation: strip(s.organisation),
    domains: byId(s.domains, (d) => d.domain),
    organisation_session: s.session ?? null,
    apis: byId(
      s.apis.map(({ parts: _p, ...a }) => strip(a)),
      (a) => a.api_id,
    ),
    policies: byId(s.policies.map(strip), (p) => p.id),
    oauth_clients: byId(s.clients.map(strip), (c) => c.client_id),
    keys: byId(s.keys, (k) => k.session.key_hash),
    webhooks: byId(hooks, (h) => h.id),
    templates: byId(s.templates.map(strip), (t) => t._id),
    users: byId(s.users.map(strip), (u) => u.id),
    portal_settings: s.portal.settings,
    catalogue: byId(s.portal.catalogue, (e) => e.api_id),
    developers: byId(s.portal.developers, (d) => d.id),
    key_requests: byId(s.portal.requests, (q) => q.id),
  };
  return canonicalJson(file);
}

/** What an import wrote, or is writing. */
export interface Imported {
  org_id: string;
  /** `importing`: the rest is written in the background (GET /admin/organisations/{orgID}/import). */
  state: 'done' | 'importing';
  imported: Record<string, number>;
  /** Whether the file carried the webhooks' signing secrets, or they were made anew. */
  webhook_secrets: 'carried' | 'new';
}

/**
 * Imports an organisation's file: 400 when it contradicts itself, 409 naming every id it would
 * take that is stored already (or a listen path it cannot claim), and nothing is written then.
 * A write that fails once the organisation is created (another writer took an id meanwhile) undoes
 * the import: the organisation is offboarded, and the answer says so. What the request has no time
 * to write (everything, with `background`) is handed over to a background run (state `importing`).
 */
export async function importOrganisation(file: OrganisationFile, opts: { background?: boolean } = {}): Promise<Imported> {
  const begun = Date.now();
  // Past this (at once when asked) the rest is written in the background.
  const deadline = opts.background ? 0 : begun + IMPORT_REQUEST_MS;
  const problems = fileProblems(file);
  if (problems.length) throw new BadRequest(`The file contradicts itself: ${problems[0]!.path} ${problems[0]!.message}`, problems);
  const orgId = String(file.organisation.id);
  const hooksMax = (file.organisation.limits as { hooks?: number } | undefined)?.hooks ?? WEBHOOK_LIMITS.hooksPerOrg;
  if (file.webhooks.length > hooksMax) throw new Unprocessable(`the file carries ${file.webhooks.length} webhooks; the organisation may hold ${hooksMax}`);
  const ungranted = file.apis.flatMap((a) => {
    const domain = listenClaimOf(a as ApiRecord)?.domain;
    return domain && !file.domains.some((d) => d.domain === domain) ? [`API ${a.api_id}: domain ${domain} is not among the file's domains`] : [];
  });
  if (ungranted.length) throw new Unprocessable(ungranted.join('; '));
  const run = await loadRun(orgId);
  if (run && run.state !== 'done') throw new Conflict(`organisation ${orgId} is being offboarded; import it once that is done`);
  const taken = await takenAmong({
    orgId,
    domains: file.domains.map((d) => d.domain),
    apiIds: file.apis.map((a) => a.api_id),
    apiDbIds: file.apis.map((a) => a.id),
    policyIds: file.policies.map((p) => p.id),
    keyHashes: file.keys.map((k) => k.session.key_hash),
    clientIds: file.oauth_clients.map((c) => c.client_id),
    userIds: file.users.map((u) => u.id),
    developerIds: (file.developers ?? []).map((d) => d.id),
    keyRequestIds: (file.key_requests ?? []).map((q) => q.id),
  });
  const refused = taken.length ? [] : await claimRefusals(file.apis as ApiRecord[]);
  if (taken.length || refused.length) {
    const named = taken.length ? taken.map((t) => `${t} is stored already`) : refused;
    throw new Conflict(
      `Nothing was imported: ${named.length} conflict(s), first ${named.slice(0, 5).join('; ')}`,
      named.map((message) => ({ path: 'file', message })),
    );
  }
  const restore = await restoreOf(file);
  const objects = restoreObjects(restore);
  const state = await writeImport(restore, objects, { begun, deadline });
  return {
    org_id: orgId,
    state,
    imported: fileCounts(file),
    webhook_secrets: file.webhooks.some((h) => !h.signing_secret) ? 'new' : 'carried',
  };
}

/**
 * The request's part of an import, on a run it claims first and holds past the function's timeout:
 * its writes stored beside the run, the organisation's first write, objects until `deadline`, then
 * the end (all written) or the hand-over. A request cut off anywhere leaves the run to the worker
 * once the hold passes. A write refused once the organisation is created undoes the import.
 */
async function writeImport(restore: Restore, objects: ReturnType<typeof restoreObjects>, at: { begun: number; deadline: number }): Promise<Imported['state']> {
  const orgId = restore.organisation.id;
  const startedAt = new Date(at.begun).toISOString();
  let run = await claimImportRun(orgId, { total: objects.length, startedAt, heldUntil: at.begun + IMPORT_HOLD_MS });
  try {
    const parts = await storeImportWrites(orgId, restore);
    if (Date.now() >= at.begun + IMPORT_REQUEST_MS) {
      await moveImportRun(run, 0, { parts, handOver: true });
      return 'importing';
    }
    run = await startImport(run, restore, { parts });
    const written = await writeObjects(objects, 0, at.deadline, async (position) => {
      run = await moveImportRun(run, position);
    });
    if (written < objects.length) {
      await moveImportRun(run, written, { handOver: true });
      return 'importing';
    }
    await endImport(run, restore, written);
    return 'done';
  } catch (e) {
    // The worker took the run over: the request was too slow to hand it over itself.
    if (e instanceof ImportRunMoved) return 'importing';
    const why = e instanceof AppError ? e.message : 'a storage error';
    await failImport(run, why);
    if (!run.restored) throw e;
    throw new Conflict(`The import of ${orgId} stopped (${why}); what it wrote is being removed: GET /admin/organisations/${orgId}/offboarding`);
  }
}

/** The writes of a file: keys with the live quotas their policies give them, hooks with their secrets sealed here. */
export async function restoreOf(file: OrganisationFile): Promise<Restore> {
  const orgId = String(file.organisation.id);
  const policies = new Map(file.policies.map((p) => [p.id, p as unknown as Policy]));
  const keys = (file.keys as CarriedKey[]).map((key) => {
    const named = (key.session.apply_policies ?? []).flatMap((id) => policies.get(id) ?? []);
    return { key, scopes: quotaScopes(applyPolicies(key.session as KeySession, named)) };
  });
  const hooks = await Promise.all(
    file.webhooks.map(async ({ signing_secret, ...hook }) => ({
      hook: hook as unknown as Restore['hooks'][number]['hook'],
      sealed: (await sealedSecret(orgId, hook.id, signing_secret)).sealed,
    })),
  );
  return {
    organisation: { ...(file.organisation as Organisation), version: 1 },
    domains: file.domains,
    session: file.organisation_session as Restore['session'],
    apis: file.apis.map((a) => ({ ...(a as ApiRecord), version: 1 })),
    policies: file.policies.map((p) => ({ ...(p as unknown as PolicyRecord), version: 1 })),
    clients: file.oauth_clients.map((c) => ({ ...(c as unknown as StoredClient), version: 1 })),
    keys,
    hooks,
    templates: file.templates.map((t) => ({ ...(t as unknown as AssetRecord), version: 1 })),
    users: file.users.map((u) => ({ ...(u as unknown as UserRecord), version: 1 })),
    portal: {
      settings: (file.portal_settings ?? null) as Restore['portal']['settings'],
      catalogue: (file.catalogue ?? []) as unknown as Restore['portal']['catalogue'],
      developers: (file.developers ?? []) as unknown as Restore['portal']['developers'],
      requests: (file.key_requests ?? []) as unknown as Restore['portal']['requests'],
    },
    nowSeconds: nowSeconds(),
  };
}
