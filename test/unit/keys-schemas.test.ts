import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newDbId } from '../../shared/lib/hashing';
import { keyHash, newApiId, newKeyId } from '../../shared/domain/key-ids';
import { hashPassword } from '../../shared/domain/passwords';
import {
  keyAdminSchema,
  keyDashboardSchema,
  keyGatewaySchema,
  keyGetQuerySchema,
  keySessionSchema,
  keyUpdateQuerySchema,
  sessionCheckSchema,
} from '../../shared/schemas/keys';

const body = {
  org_id: 'org1',
  key_hash: 'f'.repeat(64),
  date_created: '2024-01-01T00:00:00Z',
  last_updated: '1700000000',
  key_id: 'org1abc',
  alias: 'dev',
  rate: 10,
  per: 60,
  quota_max: 100,
  quota_renewal_rate: 3600,
  expires: -1,
  access_rights: { api1: { api_id: 'api1', api_name: 'One', versions: ['Default'], allowed_urls: [{ url: '/x', methods: ['GET'] }] } },
  basic_auth_data: { user: 'dev@example.org', password: 'pw', hash_type: '' },
  jwt_data: { secret: 's' },
  monitor: { trigger_limits: [80, 50] },
  smoothing: { enabled: true, delay: 1, step: 2, threshold: 3, trigger: 0.1 },
  meta_data: { team: 'x' },
  custom_member: { kept: true },
};

describe('key schemas', () => {
  it('gateway form drops server-owned members and keeps unknown ones', async () => {
    const parsed = await keyGatewaySchema.parseAsync(body);
    expect(parsed).not.toHaveProperty('key_hash');
    expect(parsed).not.toHaveProperty('date_created');
    expect(parsed).not.toHaveProperty('last_updated');
    expect(parsed).not.toHaveProperty('key_id');
    expect(parsed.org_id).toBe('org1');
    expect(parsed).toMatchObject({ custom_member: { kept: true }, monitor: { trigger_limits: [80, 50] } });
  });

  it('dashboard form also keeps the stored org_id (drops the body one)', async () => {
    const parsed = await keyDashboardSchema.parseAsync(body);
    expect(parsed).not.toHaveProperty('org_id');
    expect(parsed).not.toHaveProperty('key_hash');
    expect(parsed.access_rights?.api1?.allowed_urls).toEqual([{ url: '/x', methods: ['GET'] }]);
  });

  it('admin form requires the organisation', async () => {
    expect((await keyAdminSchema.parseAsync(body)).org_id).toBe('org1');
    const { org_id: _omit, ...noOrg } = body;
    expect((await keyAdminSchema.safeParseAsync(noOrg)).success).toBe(false);
  });

  it('rejects wrong types, entries keyed by another API id and bad smoothing', async () => {
    expect((await keyGatewaySchema.safeParseAsync({ quota_max: 1.5 })).success).toBe(false);
    expect((await keyGatewaySchema.safeParseAsync({ expires: '1' })).success).toBe(false);
    expect((await keyGatewaySchema.safeParseAsync({ apply_policies: ['bad id'] })).success).toBe(false);
    const mismatch = await keyGatewaySchema.safeParseAsync({ access_rights: { api1: { api_id: 'api2' } } });
    expect(mismatch.success).toBe(false);
    expect(mismatch.error?.issues[0]?.path).toEqual(['access_rights', 'api1', 'api_id']);
    expect((await keyGatewaySchema.safeParseAsync({ smoothing: { trigger: 0.015 } })).success).toBe(false);
    expect((await keyGatewaySchema.safeParseAsync({ monitor: { trigger_limits: ['80'] } })).success).toBe(false);
  });

  it('session schema accepts the full stored form', async () => {
    expect((await keySessionSchema.safeParseAsync(body)).success).toBe(true);
  });

  it('parses the update and check inputs', async () => {
    expect(keyUpdateQuerySchema.parse({ suppress_reset: '1', hashed: 'x', auto_guess: 'true', username: 'false' })).toEqual({
      suppress_reset: true,
      hashed: true,
      auto_guess: true,
      username: false,
    });
    for (const v of ['0', 'false', 'False']) expect(keyUpdateQuerySchema.parse({ hashed: v }).hashed, v).toBe(false);
    for (const v of ['1', 'true', 'yes']) expect(keyUpdateQuerySchema.parse({ hashed: v }).hashed, v).toBe(true);
    expect(keyGetQuerySchema.parse({ hashed: '0' }).hashed).toBe(false);
    expect(keyGetQuerySchema.parse({ hashed: '1' }).hashed).toBe(true);
    for (const v of ['', 'yes', 'TRUE']) expect(keyGetQuerySchema.safeParse({ hashed: v }).success, v).toBe(false);
    expect((await sessionCheckSchema.safeParseAsync({ key: 'k/../x', api_id: 'a' })).success).toBe(false);
  });
});

describe('key ids', () => {
  it('prefixes the organisation, or is 32 hex without one', async () => {
    expect(newKeyId('org1')).toMatch(/^org1[0-9a-f]{32}$/);
    expect(newKeyId()).toMatch(/^[0-9a-f]{32}$/);
    expect(newKeyId('')).toMatch(/^[0-9a-f]{32}$/);
    expect(newKeyId()).not.toBe(newKeyId());
  });
  it('hashes with SHA-256 hex', async () => {
    expect(keyHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('makes database and API ids', async () => {
    expect(newDbId()).toMatch(/^[0-9a-f]{24}$/);
    expect(newApiId()).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('basic-auth passwords', () => {
  it('stores a self-describing scrypt hash (N = 2^17, r 8, p 1) of the right password only', async () => {
    const stored = await hashPassword('s3cret');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain('s3cret');
    const [, , , , salt, hash] = stored.split('$');
    const of = (pw: string) => scryptSync(pw, Buffer.from(salt!, 'base64url'), 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 }).toString('base64url');
    expect(of('s3cret')).toBe(hash);
    expect(of('s3cret!')).not.toBe(hash);
    expect(await hashPassword('s3cret')).not.toBe(stored);
  });
});
