/**
 * Every item the table stores is defined once, by its store module (shared/store/db/entity.ts):
 * the registry names each entity with the partition keys it writes, as a LeadingKeys pattern.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runAs } from '../../shared/request-context';
import { defineEntity, definedEntities } from '../../shared/store/db/entity';
// The stack's own list of store modules (it loads them to derive the grants): the registry as synth sees it.
import '../../infra/constructs/leading-keys';

describe('the entity registry', () => {
  it('names every stored entity with the partition pattern of its key builder, and which are versioned', () => {
    const seen = new Set(
      definedEntities()
        .filter((e) => e.name !== 'test_thing')
        .map((e) => `${e.name} ${e.partition}${e.versioned ? ' versioned' : ''}`),
    );
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
        'deletion DELETED#*|*',
        'domain_grant DOMAINS#ALL',
        'gateway_report GATEWAYS#ALL',
        'delivery HOOKDLV#*#*',
        'event EVENT#*',
        'health HEALTH',
        'hook ORG#*#HOOK#* versioned',
        'hook_budget HOOKBUDGET#*',
        'hook_cooldown HOOKCOOL#*#*#*#*',
        'idempotency IDEMP#*#*',
        'idempotency_part IDEMP#*#*',
        'import_part IMPORT#*',
        'import_run IMPORT#*',
        'key KEY#* versioned',
        'key_activity KACT#*',
        'listen_path LISTEN#*',
        'shared_path SHARED#*',
        'shared_path_head SHARED#*',
        'live_quota KEY#*',
        'live_quota ORG#*',
        'live_quota_shard KEY#*',
        'oauth_client OAUTH#* versioned',
        'org ORG#*',
        'org_count ORGS',
        'org_limit ORGLIMIT#*#*',
        'offboarding OFFBOARD#*',
        'org_session ORG#*',
        'policy POLICY#* versioned',
        'routed_claim ROUTES#CLAIMS',
        'host_claims ROUTES#HOSTS',
        'usage_day BILLDAY#*#*',
        'usage_mark BILLMARK#*',
        'usage_month BILLMONTH#*#*',
        'usage_refusals USAGEREF#*#*',
        'routing_version ROUTES#VERSION',
        'asset_custom_id ORG#*#ASSETID#*',
        'audit_entry AUDIT#*',
        'user_email ORG#*#EMAIL#*',
        'key_username ORG#*#KEYUSER#*',
        'user USER#* versioned',
        'portal_settings ORG#*#PORTAL',
        'catalogue_entry ORG#*#PORTAL',
        'developer DEV#*',
        'developer_email ORG#*#DEVEMAIL#*',
        'developer_session DEVSESSION#*',
        'developer_invitation INVITE#*',
        'sign_in_window SIGNIN#*',
        'key_request KEYREQ#*',
      ].sort(),
    );
  });
});

describe('the audit trail (contract §12)', () => {
  it('knows the configuration objects: their deletes name who deleted them', () => {
    expect(
      definedEntities()
        .filter((e) => e.audited)
        .map((e) => e.name)
        .sort(),
    ).toEqual(
      ['api', 'asset', 'domain_grant', 'hook', 'key', 'oauth_client', 'org', 'org_session', 'policy', 'user']
        .concat(['portal_settings', 'catalogue_entry', 'developer', 'key_request'])
        .sort(),
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

  it('stamps every write made in a request with its actor, request id and time; reads never show the stamp', async () => {
    const request = { requestId: 'req-1', route: 'PUT /x', actor: { type: 'user' as const, id: 'u1', email: 'u1@x.example' } };
    const forged = { id: 'a', org: 'o', name: 'n', audit_actor: { type: 'admin' } } as never;
    const item = await runAs(request, async () => things.toItem(forged));
    expect(item).toMatchObject({ audit_actor: request.actor, audit_request_id: 'req-1' });
    expect(Date.parse(String(item.audit_at))).toBeGreaterThan(Date.now() - 60_000);
    expect(things.fromItem(item)).toEqual({ id: 'a', org: 'o', name: 'n' });
    const update = await runAs(request, async () => things.set(['a'], { name: 'm' }).op.Update!);
    expect(Object.values(update.ExpressionAttributeNames!)).toEqual(['name', 'audit_actor', 'audit_request_id', 'audit_at']);
    // Outside a request (the change feed's own writes) nothing is stamped.
    expect(things.toItem({ id: 'a', org: 'o', name: 'n' })).not.toHaveProperty('audit_actor');
  });

  it("an audited entity's delete writes who deleted it in the same transaction; others' do not", async () => {
    const audited = defineEntity<{ id: string }, [id: string]>({ name: 'test_thing', key: (id) => ({ PK: `T#${id}`, SK: 'T' }), audited: true });
    const request = { requestId: 'req-2', route: 'DELETE /x', actor: { type: 'gateway' as const } };
    const removal = await runAs(request, async () => audited.remove('a'));
    expect(removal.op.Delete!.Key).toEqual({ PK: 'T#a', SK: 'T' });
    expect(removal.alongside).toHaveLength(1);
    const record = removal.alongside![0]!.Put!.Item!;
    expect(record).toMatchObject({ PK: 'DELETED#T#a|T', entity: 'deletion', audit_actor: { type: 'gateway' }, audit_request_id: 'req-2' });
    expect(String(record.SK)).toBe(`${String(record.audit_at)}#req-2`);
    expect(record.expires_at).toBeGreaterThan(Date.now() / 1000 + 6 * 86400);
    expect((await runAs(request, async () => things.remove('a'))).alongside).toBeUndefined();
  });

  it('reads a value back without keys, index keys, `entity` or private attributes', () => {
    const item = things.toItem({ id: 'a', org: 'o', name: 'n' }, { extra: { secret: 's' } });
    expect(item.secret).toBe('s');
    expect(things.fromItem(item)).toEqual({ id: 'a', org: 'o', name: 'n' });
  });
});

describe("the stack's list of store modules", () => {
  it('imports every store module that defines an entity, so its partitions are granted', () => {
    const list = readFileSync('infra/constructs/leading-keys.ts', 'utf8');
    const defining = readdirSync('shared/store')
      .filter((f) => f.endsWith('.ts') && /\bdefine(Entity|Marker)[<(]/.test(readFileSync(`shared/store/${f}`, 'utf8')))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(defining.length).toBeGreaterThan(10);
    expect(defining.filter((m) => !list.includes(`'../../shared/store/${m}'`))).toEqual([]);
  });
});
