/**
 * An organisation's portal: its settings and its catalogue, one partition per organisation, so
 * the catalogue is one Query and an offboarding empties one partition.
 */
import type { CatalogueEntry, PortalSettings } from '../schemas/portal';
import { defineEntity } from './db/entity';
import { queryAll, stripItem } from './db/items';
import type { StorageKey } from './db/storage-key';
import { domainGrantedTo } from './domain-grants';
import { routingVersionMove } from './routing-version';
import { writeItems, type TxItem } from './db/transactions';
import type { AppError } from '../errors';

export const portalKeys = {
  partition: (orgId: string) => `ORG#${orgId}#PORTAL`,
  settings: (orgId: string): StorageKey => ({ PK: `ORG#${orgId}#PORTAL`, SK: 'SETTINGS' }),
  entry: (orgId: string, apiId: string): StorageKey => ({ PK: `ORG#${orgId}#PORTAL`, SK: `ENTRY#${apiId}` }),
  /** GSI1: the portals served on a domain of their own, by domain (the routing table reads them). */
  onDomains: 'PORTALS#DOMAINS',
};

export type StoredSettings = PortalSettings & { org_id: string; updated_at: string };

const settings = defineEntity<StoredSettings, [orgId: string]>({
  name: 'portal_settings',
  key: portalKeys.settings,
  ids: (s) => [s.org_id],
  indexes: (s): Record<string, string> => (s.domain ? { GSI1PK: portalKeys.onDomains, GSI1SK: `${s.domain}#${s.org_id}` } : {}),
  audited: true,
});
const entries = defineEntity<CatalogueEntry, [orgId: string, apiId: string]>({
  name: 'catalogue_entry',
  key: portalKeys.entry,
  ids: (e) => [e.org_id, e.api_id],
  audited: true,
});

export const loadPortalSettings = (orgId: string): Promise<StoredSettings | undefined> => settings.get(orgId);

/**
 * Stores the settings. A domain must be granted to the organisation, checked in the same
 * transaction (`notGranted` otherwise); every write moves the routing version, since where the
 * portal is served may change with it.
 */
export async function savePortalSettings(s: StoredSettings, notGranted: () => AppError): Promise<void> {
  await writeItems([settings.put(s), ...(s.domain ? [domainGrantedTo(s.domain, s.org_id, notGranted)] : []), routingVersionMove()]);
}

/** Every portal that names a domain of its own: its organisation, domain and whether it is on (one Query of the index). */
export async function loadPortalDomains(): Promise<Array<{ org_id: string; domain: string; enabled: boolean }>> {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': portalKeys.onDomains },
  });
  return items.map((i) => ({ org_id: String(i.org_id), domain: String(i.domain), enabled: i.enabled === true }));
}

export const loadCatalogueEntry = (orgId: string, apiId: string): Promise<CatalogueEntry | undefined> => entries.get(orgId, apiId);

export async function saveCatalogueEntry(e: CatalogueEntry): Promise<void> {
  await writeItems([entries.put(e)]);
}

/** Unpublishes an API; `missing` when it was not in the catalogue (a second unpublish is a 404, not a silent success). */
export async function removeCatalogueEntry(orgId: string, apiId: string, missing: () => Error): Promise<void> {
  const removal = entries.remove(orgId, apiId);
  removal.op.Delete!.ConditionExpression = 'attribute_exists(PK)';
  await writeItems([{ ...removal, onConditionFail: missing }]);
}

/** Every catalogue entry of the organisation (one Query of its portal partition; at most one per API). */
export async function loadCatalogue(orgId: string): Promise<CatalogueEntry[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :entry)',
    ExpressionAttributeValues: { ':pk': portalKeys.partition(orgId), ':entry': 'ENTRY#' },
    ConsistentRead: true,
  });
  return items.map((i) => stripItem<CatalogueEntry>(i));
}

/** An imported portal's settings (create-only: the organisation is new). */
export const restoredSettingsItem = (s: StoredSettings): TxItem => settings.insert(s);

/** An imported catalogue entry (create-only). */
export const restoredEntryItem = (e: CatalogueEntry): TxItem => entries.insert(e);
