/**
 * Item-level least privilege: the partition keys a function may touch, as IAM
 * `dynamodb:LeadingKeys` patterns, derived from the entity registry (shared/store/db/entity.ts:
 * each store module defines its entities, and each entity its partition pattern, `*` for each id).
 * A function names the entities its code reads and writes (a route in the route table,
 * `tableEntities`; the other functions below); their patterns become a
 * `ForAllValues:StringLike` condition on its table grant (table-grants.ts), so, for example, the
 * webhook attempt function can read and update deliveries, budgets and hooks, and is denied a user
 * or access-key item whatever the action, and no function but the audit consumer may touch an
 * audit entry. `*` in IAM's StringLike matches `#` too: ORG#* covers
 * the partitions under an organisation's (ORG#<id>#HOOK#...), so a function granted `org` reaches
 * those as well; the patterns below name the narrowest entities.
 */
// The store modules that define the entities: loading them fills the registry.
import '../../shared/store/analytics-batches';
import '../../shared/store/api-usage';
import '../../shared/store/key-activity';
import '../../shared/store/apis';
import '../../shared/store/assets';
import '../../shared/store/audit-log';
import '../../shared/store/delivery-budget';
import '../../shared/store/domain-grants';
import '../../shared/store/events';
import '../../shared/store/gateway-reports';
import '../../shared/store/health';
import '../../shared/store/hook-deliveries';
import '../../shared/store/hooks';
import '../../shared/store/idempotency';
import '../../shared/store/keys';
import '../../shared/store/host-claim-counts';
import '../../shared/store/listen-claims';
import '../../shared/store/oauth-clients';
import '../../shared/store/org-limits';
import '../../shared/store/org-sessions';
import '../../shared/store/import-runs';
import '../../shared/store/offboarding';
import '../../shared/store/organisations';
import '../../shared/store/policies';
import '../../shared/store/routing-version';
import '../../shared/store/usage-figures';
import '../../shared/store/usage-tallies';
import '../../shared/store/users';
import '../../shared/store/developers';
import '../../shared/store/key-requests';
import '../../shared/store/portal';
import { definedEntities } from '../../shared/store/db/entity';

/**
 * What routing touches: the APIs and their parts, the key's session and its policies, the hooks
 * the handlers name, whether their organisations are active, the deliveries it makes and their
 * cooldown windows, and the portal settings that name the hooks of its events.
 */
export const ROUTING_ENTITIES = ['api', 'api_part', 'key', 'policy', 'hook', 'org', 'delivery', 'hook_cooldown', 'portal_settings'] as const;
/** Of those, what routing writes: the deliveries and their cooldown windows. */
export const ROUTING_WRITES = ['delivery', 'hook_cooldown'] as const;
/** What an attempt touches: its organisation's budget, the delivery, the hook it calls. */
export const ATTEMPT_ENTITIES = ['hook_budget', 'delivery', 'hook'] as const;

/**
 * What the audit consumer touches (functions/audit/change-feed.ts): the entries it writes, the
 * only function granted them, and the deletion records a delete wrote, which it reads.
 */
export const AUDIT_CONSUMER_ENTITIES = ['audit_entry', 'deletion'] as const;

/**
 * What the usage consumer touches (functions/billing/change-feed.ts): the figures and the stream
 * positions kept with them, the only function granted their writes. The counters and refusal
 * tallies it counts come in the stream records; it never reads them.
 */
export const USAGE_CONSUMER_ENTITIES = ['usage_day', 'usage_month', 'usage_mark'] as const;

/**
 * What the change feed's consumers read besides (the usage and audit consumers): whether an
 * organisation is being offboarded, by BatchGetItem of its run, nothing more.
 */
export const OFFBOARDING_READ = { actions: ['BatchGetItem'], entities: ['offboarding'] } as const;

/**
 * What the offboarding worker touches (functions/organisations/offboarding-feed.ts): its run, and
 * everything an organisation owns that it deletes, with the installation's items that move with an
 * API's or a domain's delete (claims, host counts, the routing version, the organisation count).
 * Not the idempotency records, events, cooldown windows or analytics batch markers: those expire by
 * TTL (contract §9). Its audit entries it may only read and delete (infra/constructs/offboarding.ts).
 */
export const OFFBOARDING_ENTITIES = [
  'offboarding',
  'org',
  'counter',
  'org_count',
  'org_session',
  'live_quota',
  'live_quota_shard',
  'key',
  'key_username',
  'key_activity',
  'api',
  'api_part',
  'api_db_id',
  'api_usage',
  'listen_path',
  'shared_path',
  'shared_path_head',
  'routed_claim',
  'host_claims',
  'routing_version',
  'domain_grant',
  'oauth_client',
  'policy',
  'hook',
  'delivery',
  'hook_budget',
  'asset',
  'asset_custom_id',
  'user',
  'user_email',
  'access_key',
  'portal_settings',
  'catalogue_entry',
  'developer',
  'developer_email',
  'developer_session',
  'developer_invitation',
  'key_request',
  'usage_day',
  'usage_month',
  'usage_mark',
  'usage_refusals',
  'org_limit',
] as const;

/** The partition patterns of these entities (sorted, each once); an unknown name throws at synth. */
export function leadingKeysOf(names: readonly string[]): string[] {
  const patterns = new Set<string>();
  for (const name of names) {
    const found = definedEntities().filter((e) => e.name === name);
    if (!found.length) throw new Error(`no entity named "${name}" is defined (shared/store/*.ts defineEntity)`);
    for (const e of found) patterns.add(e.partition);
  }
  return [...patterns].sort();
}
