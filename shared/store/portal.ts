/**
 * An organisation's portal: its settings and its catalogue, one partition per organisation, so
 * the catalogue is one Query and an offboarding empties one partition.
 */
import type { CatalogueEntry, PortalSettings } from '../schemas/portal';
import { defineEntity } from './db/entity';
import { queryAll, stripItem } from './db/items';
import type { StorageKey } from './db/storage-key';
import { writeItems } from './db/transactions';

export const portalKeys = {
  partition: (orgId: string) => `ORG#${orgId}#PORTAL`,
  settings: (orgId: string): StorageKey => ({ PK: `ORG#${orgId}#PORTAL`, SK: 'SETTINGS' }),
  entry: (orgId: string, apiId: string): StorageKey => ({ PK: `ORG#${orgId}#PORTAL`, SK: `ENTRY#${apiId}` }),
};

export type StoredSettings = PortalSettings & { org_id: string; updated_at: string };

const settings = defineEntity<StoredSettings, [orgId: string]>({ name: 'portal_settings', key: portalKeys.settings, ids: (s) => [s.org_id], audited: true });
const entries = defineEntity<CatalogueEntry, [orgId: string, apiId: string]>({
  name: 'catalogue_entry',
  key: portalKeys.entry,
  ids: (e) => [e.org_id, e.api_id],
  audited: true,
});

export const loadPortalSettings = (orgId: string): Promise<StoredSettings | undefined> => settings.get(orgId);

export async function savePortalSettings(s: StoredSettings): Promise<void> {
  await writeItems([settings.put(s)]);
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
