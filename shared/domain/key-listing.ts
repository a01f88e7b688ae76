/**
 * A key as the dashboard's key list shows it (GET /api/keys): by its hash, with what a table of
 * keys needs. Apart from key-rules.ts, so the list's function loads only this mapping.
 */
import { apiIdsOf, policyIdsOf } from './key-rules';
import { UNLIMITED } from './quota';
import type { KeyListRow, KeySession } from '../schemas/keys';

/**
 * The row of a key from its stored session and its effective session as reads show it (live
 * quota filled in): APIs and quota are the effective ones, the policies those the key applies.
 */
export function keyListRow(stored: KeySession & { key_hash: string; date_created: string; last_updated: string }, shown: KeySession): KeyListRow {
  const quotaMax = shown.quota_max ?? UNLIMITED;
  return {
    key_hash: stored.key_hash,
    alias: stored.alias ?? '',
    apis: apiIdsOf(shown.access_rights),
    apply_policies: policyIdsOf(stored),
    expires: stored.expires ?? 0,
    is_inactive: stored.is_inactive ?? false,
    quota_max: quotaMax,
    quota_remaining: shown.quota_remaining ?? quotaMax,
    quota_renews: shown.quota_renews ?? 0,
    date_created: stored.date_created,
    last_updated: stored.last_updated,
  };
}
