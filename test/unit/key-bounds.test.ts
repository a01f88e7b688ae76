/**
 * No client text makes a key attribute larger than DynamoDB takes (2,048 bytes for a partition
 * key, 1,024 for a sort key; docs/reference/limits.md): every key builder of shared/store/* with the
 * longest input each field's schema allows, and the API-name sort key with text of any length,
 * multibyte or not. A too-large key is a DynamoDB ValidationException, which must answer 400, never 500.
 */
import { describe, expect, it } from 'vitest';
import { activityKeys } from '../../shared/store/key-activity';
import { apiKeys } from '../../shared/store/apis';
import { domainKeys } from '../../shared/store/domain-grants';
import { claimKeys } from '../../shared/store/listen-claims';
import { LISTEN_PATH_BYTES } from '../../shared/domain/listen-paths';
import { assetKeys } from '../../shared/store/assets';
import { cutUtf8, KEY_BYTES, textSortKey, timeSortKey } from '../../shared/store/db/storage-key';
import { hookKeys } from '../../shared/store/hooks';
import { keyKeys } from '../../shared/store/keys';
import { oauthKeys } from '../../shared/store/oauth-clients';
import { orgSessionKeys } from '../../shared/store/org-sessions';
import { orgKeys } from '../../shared/store/organisations';
import { policyKey } from '../../shared/store/policies';
import { userKeys } from '../../shared/store/users';
import { ID_PATTERN, idSchema, usernameSchema } from '../../shared/schemas/common';
import { userCreateSchema } from '../../shared/schemas/users';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
/** The text as UTF-8 stores it: lone surrogates become U+FFFD. */
const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** The longest values the schemas accept (checked against them below). */
const ID = 'i'.repeat(128);
const USERNAME = `${'u'.repeat(121)}@x+y.zz`;
const EMAIL = `${'e'.repeat(64)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(57)}.com`;
const ISO = '2026-11-23T18:00:00.000Z';
const HASH = 'h'.repeat(128);

describe('every storage key built from client input stays within DynamoDB key limits', () => {
  it('the longest inputs are the ones the schemas accept', () => {
    expect(ID_PATTERN.test(ID)).toBe(true);
    expect(idSchema.safeParse(`${ID}x`).success).toBe(false);
    expect(usernameSchema.safeParse(USERNAME).success).toBe(true);
    expect(usernameSchema.safeParse(`${USERNAME}x`).success).toBe(false);
    expect(EMAIL.length).toBe(254);
    expect(userCreateSchema.shape.email_address.safeParse(EMAIL).success).toBe(true);
    expect(userCreateSchema.shape.email_address.safeParse(`e${EMAIL}`).success).toBe(false);
  });

  it('table keys (PK <= 2,048 bytes, SK <= 1,024) and index partitions with the longest inputs', () => {
    const keys = [
      apiKeys.main(ID),
      apiKeys.part(ID, 9999),
      apiKeys.byDbId(ID),
      claimKeys.marker('h'.repeat(64)),
      // The longest listen path claimed (a longer one is 400 before any key is built).
      claimKeys.shared('h'.repeat(64), `/${'€'.repeat((LISTEN_PATH_BYTES - 1) / 3)}`),
      claimKeys.head('h'.repeat(64)),
      domainKeys.grant('d'.repeat(253)),
      assetKeys.main(ID, ID),
      assetKeys.customId(ID, ID),
      hookKeys.hook(ID, ID),
      keyKeys.key(HASH),
      keyKeys.quota(HASH, ID),
      keyKeys.shard(HASH, ID, 7),
      keyKeys.username(ID, USERNAME),
      oauthKeys.client(ID),
      orgSessionKeys.session(ID),
      orgSessionKeys.quota(ID),
      orgKeys.org(ID),
      orgKeys.counter(ID, 'API'),
      policyKey(ID),
      userKeys.user(ID),
      userKeys.email(ID, EMAIL.toLowerCase()),
      userKeys.accessKey(HASH),
      activityKeys.counter({ key_hash: HASH, hour: '2026-11-23T18', api_id: ID, path: `/${'€'.repeat(700)}` }),
    ];
    for (const k of keys) {
      expect(bytes(k.PK), k.PK).toBeLessThanOrEqual(KEY_BYTES.partition);
      expect(bytes(k.SK), k.SK).toBeLessThanOrEqual(KEY_BYTES.sort);
    }
    const partitions = [apiKeys.ofOrg(ID), assetKeys.ofOrg(ID), hookKeys.ofOrg(ID), oauthKeys.ofApi(ID), userKeys.ofOrg(ID), activityKeys.partition(HASH)];
    for (const p of partitions) expect(bytes(p)).toBeLessThanOrEqual(KEY_BYTES.partition);
    expect(bytes(timeSortKey(ISO, ID))).toBeLessThanOrEqual(KEY_BYTES.sort);
  });

  it.each([
    ['1,000 €', '€'.repeat(1000)],
    ['1,020 ASCII', 'a'.repeat(1020)],
    ['the longest API name (65,536 characters) of €', '€'.repeat(65_536)],
    ['4-byte characters', '𝄞'.repeat(400)],
    ['quotes and control characters', '"\\\u0001'.repeat(2000)],
    ['a lone surrogate at the cut', `${'a'.repeat(998)}\ud800${'b'.repeat(50)}`],
  ])('the name sort key of %s is at most 1,024 bytes, well-formed, and ends with the id', (_, name) => {
    const key = textSortKey(name.toLowerCase(), ID);
    expect(bytes(key)).toBeLessThanOrEqual(KEY_BYTES.sort);
    expect(key.endsWith(`#${ID}`)).toBe(true);
    expect(wellFormed(key)).toBe(key);
    const kept = key.slice(0, -(ID.length + 1));
    expect(wellFormed(name.toLowerCase()).startsWith(kept)).toBe(true);
    // As much of the name as fits is kept (a cut never loses a whole character more than needed).
    expect(bytes(kept)).toBeGreaterThan(KEY_BYTES.sort - ID.length - 1 - 4);
  });

  it('short names are kept whole, and order by name then id as before', () => {
    expect(textSortKey('apple', 'x1')).toBe('apple#x1');
    const long = (c: string) => textSortKey(`${'€'.repeat(2000)}${c}`, ID);
    // Names that agree on the kept prefix tie and sort by id; names that differ within it keep their order.
    expect(long('a')).toBe(long('b'));
    expect(textSortKey(`${'€'.repeat(100)}a${'x'.repeat(5000)}`, ID) < textSortKey(`${'€'.repeat(100)}b`, ID)).toBe(true);
  });

  it('cutUtf8 never splits a character', () => {
    for (let n = 0; n <= 12; n++) {
      const cut = cutUtf8('a€𝄞é€', n);
      expect(bytes(cut)).toBeLessThanOrEqual(n);
      expect('a€𝄞é€'.startsWith(cut)).toBe(true);
    }
  });
});
