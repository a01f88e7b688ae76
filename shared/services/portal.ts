/**
 * An organisation's portal as its users set it up (settings, catalogue) and as the public reads
 * it. A portal that is off, or was never set up, answers 404 on every public and developer route,
 * exactly like an organisation that does not exist, so the routes name no organisation.
 */
import { NotFound, Unprocessable } from '../errors';
import { publicView } from '../domain/oas-document';
import type { CatalogueEntry, CatalogueEntryBody, PortalSettings } from '../schemas/portal';
import { loadApiSummaries } from '../store/apis';
import { notGranted } from '../store/domain-grants';
import {
  loadCatalogue,
  loadCatalogueEntry,
  loadPortalSettings,
  removeCatalogueEntry,
  saveCatalogueEntry,
  savePortalSettings,
  type StoredSettings,
} from '../store/portal';
import type { StoredPolicy } from '../store/policies';
import { orgApi } from './org-apis';
import { resolvePolicies } from './references';
import { missingHooks } from '../store/hooks';
import { orgStandingOf } from './org-limits';

const DEFAULT_SETTINGS: PortalSettings = { enabled: false, sign_up: 'approval' };

const noPortal = () => new NotFound('portal not found');

/** GET /api/portal/settings: as stored, or the defaults (off, sign-up by approval) of a portal never set up. */
export async function portalSettings(orgId: string): Promise<StoredSettings | (PortalSettings & { org_id: string })> {
  return (await loadPortalSettings(orgId)) ?? { ...DEFAULT_SETTINGS, org_id: orgId };
}

/** PUT /api/portal/settings: every hook named must be the organisation's (422 as for one that exists nowhere). */
export async function setPortalSettings(orgId: string, body: PortalSettings): Promise<StoredSettings> {
  const missing = await missingHooks(orgId, [...new Set(body.hook_ids ?? [])]);
  if (missing.length) throw new Unprocessable(`unknown webhook: ${missing.join(', ')}`);
  const stored: StoredSettings = { ...body, org_id: orgId, updated_at: new Date().toISOString() };
  await savePortalSettings(stored, () => notGranted(body.domain!, 'domain'));
  return stored;
}

/** The settings of a portal that is on, of an organisation not suspended; 404 otherwise (public and developer routes). */
export async function openPortal(orgId: string): Promise<StoredSettings> {
  const [settings, standing] = await Promise.all([loadPortalSettings(orgId), orgStandingOf(orgId)]);
  if (!settings?.enabled || !standing.active) throw noPortal();
  return settings;
}

/**
 * PUT /api/portal/catalogue/{apiID}: publishes an API of the organisation (404 otherwise) with its
 * plans. Each plan's policy must be the organisation's and grant the API (422), so every key a
 * plan issues reaches the API it was asked for.
 */
export async function publishApi(orgId: string, apiId: string, body: CatalogueEntryBody): Promise<CatalogueEntry> {
  const api = await orgApi(orgId, apiId);
  if (!api) throw new NotFound(`API ${apiId} not found`);
  const policyIds = [...new Set(body.plans.map((p) => p.policy_id))];
  const { found, missing } = await resolvePolicies(policyIds, orgId);
  if (missing.length) throw new Unprocessable(`unknown policy: ${missing.join(', ')}`);
  const blind = found.filter((p) => !Object.hasOwn(p.access_rights ?? {}, api.api_id)).map((p) => p.id);
  if (blind.length) throw new Unprocessable(`policy ${blind.join(', ')} does not grant API ${api.api_id}`);
  const now = new Date().toISOString();
  const previous = await loadCatalogueEntry(orgId, api.api_id);
  const entry: CatalogueEntry = {
    api_id: api.api_id,
    org_id: orgId,
    kind: api.kind,
    title: body.title ?? api.name,
    description: body.description,
    plans: body.plans,
    published_at: previous?.published_at ?? now,
    updated_at: now,
  };
  await saveCatalogueEntry(entry);
  return entry;
}

export async function unpublishApi(orgId: string, apiId: string): Promise<void> {
  await removeCatalogueEntry(orgId, apiId, () => new NotFound(`API ${apiId} is not in the catalogue`));
}

export const catalogueOf = (orgId: string): Promise<CatalogueEntry[]> => loadCatalogue(orgId);

/** What a plan's policy gives a key, as a developer reads it. */
function limitsOf(policy: StoredPolicy | undefined) {
  return {
    quota_max: policy?.quota_max ?? -1,
    quota_renewal_rate: policy?.quota_renewal_rate ?? -1,
    rate: policy?.rate ?? 0,
    per: policy?.per ?? 0,
  };
}

/** GET /portal/{orgID}/catalogue: the published APIs with what each plan gives; no policy id, no gateway detail. */
export async function publicCatalogue(orgId: string) {
  const settings = await openPortal(orgId);
  const entries = await loadCatalogue(orgId);
  const { found } = await resolvePolicies([...new Set(entries.flatMap((e) => e.plans.map((p) => p.policy_id)))], orgId);
  // An API deleted since it was published is not offered.
  const live = await loadApiSummaries(entries.map((e) => e.api_id));
  const apis = entries
    .filter((e) => live.get(e.api_id)?.org_id === orgId)
    .map(({ api_id, title, description, kind, plans }) => ({
      api_id,
      title,
      description,
      kind,
      plans: plans.map(({ policy_id, ...plan }) => ({ ...plan, ...limitsOf(found.find((p) => p.id === policy_id)) })),
    }));
  return { title: settings.title ?? orgId, sign_up: settings.sign_up, apis };
}

/**
 * GET /portal/{orgID}/catalogue/{apiID}/openapi: the published API's document as `mode=public`
 * shows it (no gateway extension); a classic API's is made from its definition the same way.
 */
export async function publicDocument(orgId: string, apiId: string): Promise<Record<string, unknown>> {
  await openPortal(orgId);
  const entry = await loadCatalogueEntry(orgId, apiId);
  const api = entry && (await orgApi(orgId, apiId));
  if (!api) throw new NotFound(`API ${apiId} not found in this portal`);
  return api.oas ? publicView(api.oas) : minimalDocument(entry, api.classic);
}

/** A classic API's document: the catalogue's title and description, and where it listens; its paths are not known. */
function minimalDocument(entry: CatalogueEntry, classic: Record<string, unknown>): Record<string, unknown> {
  const listenPath = (classic.proxy as { listen_path?: unknown } | undefined)?.listen_path;
  const info = { title: entry.title, version: '1', ...(entry.description ? { description: entry.description } : {}) };
  return { openapi: '3.0.3', info, ...(typeof listenPath === 'string' ? { servers: [{ url: listenPath }] } : {}), paths: {} };
}
