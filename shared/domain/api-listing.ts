import type { ApiRecord } from './api-records';
import { hookReferencesOf } from './event-handlers';

/**
 * The dashboard listing entry of a record. Apart from api-records.ts, so reading a list never
 * loads the OAS <-> classic conversion a write needs.
 */
export function listingEntry(api: ApiRecord) {
  return {
    api_definition: api.classic,
    ...(api.oas ? { oas: api.oas } : {}),
    api_model: {},
    categories: api.categories,
    created_at: api.created_at,
    updated_at: api.updated_at,
    hook_references: hookReferencesOf(api.classic),
    is_site: false,
    sort_by: 0,
    user_group_owners: [],
    user_owners: [],
  };
}
