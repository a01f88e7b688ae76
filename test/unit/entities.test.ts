/**
 * Every item the table stores is defined once, by its store module (shared/store/db/entity.ts):
 * the registry names each entity with the partition keys it writes, as a LeadingKeys pattern.
 */
import { describe, expect, it } from 'vitest';
import { defineEntity, definedEntities } from '../../shared/store/db/entity';
import '../../shared/store/analytics';
import '../../shared/store/apis';
import '../../shared/store/assets';
import '../../shared/store/delivery-budget';
import '../../shared/store/events';
import '../../shared/store/health';
import '../../shared/store/hook-deliveries';
import '../../shared/store/hooks';
import '../../shared/store/idempotency';
import '../../shared/store/keys';
import '../../shared/store/oauth-clients';
import '../../shared/store/org-limits';
import '../../shared/store/org-sessions';
import '../../shared/store/organisations';
import '../../shared/store/policies';
import '../../shared/store/users';

describe('the entity registry', () => {
  it('names every stored entity with the partition pattern of its key builder, and which are versioned', () => {
    const seen = new Set(definedEntities().filter((e) => e.name !== 'test_thing').map((e) => `${e.name} ${e.partition}${e.versioned ? ' versioned' : ''}`));
    expect([...seen].sort()).toEqual(
      [
        'access_key AKEY#*',
        'analytics_batch ANBATCH#*',
        'analytics_chunk ANBATCH#*',
        'api_usage AUSE#*#*',
        'api API#* versioned',
        'api_db_id APIDB#*',
        'api_part API#*',
        'asset ORG#*#ASSET#* versioned',
        'counter ORG#*',
        'delivery HOOKDLV#*#*',
        'event EVENT#*',
        'health HEALTH',
        'hook ORG#*#HOOK#* versioned',
        'hook_budget HOOKBUDGET#*',
        'hook_cooldown HOOKCOOL#*#*#*#*',
        'idempotency IDEMP#*#*',
        'idempotency_part IDEMP#*#*',
        'key KEY#* versioned',
        'key_activity KACT#*',
        'listen_path LISTEN#*',
        'live_quota KEY#*',
        'live_quota ORG#*',
        'live_quota_shard KEY#*',
        'oauth_client OAUTH#* versioned',
        'org ORG#*',
        'org_limit ORGLIMIT#*#*',
        'org_session ORG#*',
        'policy POLICY#* versioned',
        'unique ORG#*#ASSETID#*',
        'unique ORG#*#EMAIL#*',
        'unique ORG#*#KEYUSER#*',
        'user USER#* versioned',
      ].sort(),
    );
  });
});

describe('an entity', () => {
  const things = defineEntity<{ id: string; org: string; name: string; secret?: string }, [id: string]>({
    name: 'test_thing',
    key: (id) => ({ PK: `T#${id}`, SK: 'T' }),
    ids: (t) => [t.id],
    indexes: (t) => ({ GSI1PK: `T#${t.org}`, GSI1SK: t.name }),
    privateAttrs: ['secret'],
  });

  it('stores a value under its own keys: members of a loose value named like keys or `entity` cannot move it', () => {
    const hostile = { id: 'a', org: 'o', name: 'n', PK: 'ORG#victim', GSI1PK: 'ORG#victim#USERS', entity: 'user' } as never;
    expect(things.toItem(hostile)).toEqual({ PK: 'T#a', SK: 'T', entity: 'test_thing', GSI1PK: 'T#o', GSI1SK: 'n', id: 'a', org: 'o', name: 'n' });
  });

  it('reads a value back without keys, index keys, `entity` or private attributes', () => {
    const item = things.toItem({ id: 'a', org: 'o', name: 'n' }, { extra: { secret: 's' } });
    expect(item.secret).toBe('s');
    expect(things.fromItem(item)).toEqual({ id: 'a', org: 'o', name: 'n' });
  });
});
