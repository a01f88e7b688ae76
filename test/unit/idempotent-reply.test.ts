import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openReply, packReply, SECRET_WITHHELD, withholdSecrets } from '../../shared/domain/idempotent-reply';
import { routeList } from '../../shared/routes';
import { replyKey } from '../../shared/domain/sealed';
import { deriveKey } from '../../shared/domain/service-keys';

const key = replyKey(deriveKey('service-secret', 'idempotent reply'), 'idem-1', 'scope');

describe('idempotent replies are kept gzipped, sealed and cut into parts (contract §3)', () => {
  it('a reply that compresses well fits one part far smaller than its text', () => {
    const text = JSON.stringify({ statusCode: 200, body: 'x'.repeat(1_000_000) });
    const parts = packReply(text, key, 'scope', 390 * 1024);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.length).toBeLessThan(10_000);
    expect(openReply(parts, key, 'scope')).toBe(text);
  });

  it('a reply that does not compress is cut into parts no larger than asked, and opens only whole and in order', () => {
    const text = JSON.stringify({ statusCode: 200, body: randomBytes(600_000).toString('base64') });
    const parts = packReply(text, key, 'scope', 100_000);
    expect(parts.length).toBeGreaterThan(6);
    expect(parts.every((p) => p.length <= 100_000)).toBe(true);
    expect(openReply(parts, key, 'scope')).toBe(text);
    expect(openReply(parts.slice(0, -1), key, 'scope')).toBeUndefined();
    expect(openReply([parts[1]!, parts[0]!, ...parts.slice(2)], key, 'scope')).toBeUndefined();
    expect(openReply(parts, key, 'other-scope')).toBeUndefined();
    expect(openReply(parts, replyKey(deriveKey('service-secret', 'idempotent reply'), 'idem-2', 'scope'), 'scope')).toBeUndefined();
  });
});

describe('secrets withheld from kept replies (contract §3)', () => {
  it('replaces each named member that holds a value, at any depth, and nothing else', () => {
    const body = JSON.stringify({ Status: 'OK', Message: 'clear-key', Meta: { id: 'u1', access_key: 'clear-key' }, ID: 'x' });
    expect(JSON.parse(withholdSecrets(body, ['Message', 'Meta.access_key']))).toEqual({
      Status: 'OK',
      Message: SECRET_WITHHELD,
      Meta: { id: 'u1', access_key: SECRET_WITHHELD },
      ID: 'x',
    });
    expect(JSON.parse(withholdSecrets('{"a":1}', ['secret', 'Meta.x']))).toEqual({ a: 1 });
    expect(withholdSecrets('not json', ['x'])).toBe('not json');
  });

  it('the creating routes whose answers show a secret once declare it in the route table', () => {
    const declared = Object.fromEntries(routeList.filter((r) => r.secrets?.length).map((r) => [`${r.method} ${r.path}`, r.secrets]));
    expect(declared).toEqual({
      'POST /admin/users': ['Message', 'Meta.access_key'],
      'POST /admin/users/{userID}/access-key': ['Message', 'Meta.access_key'],
      'POST /api/hooks': ['signing_secret'],
      'POST /gw/keys/create': ['key'],
      'POST /admin/org/keys': ['key_id'],
      'POST /gw/oauth/clients/create': ['secret'],
      'POST /api/keys': ['key_id'],
      'POST /api/apis/oauth/{apiID}': ['secret'],
      'POST /api/portal/invitations': ['Meta.invitation'],
      'POST /portal/{orgID}/key-requests': ['Meta.key'],
      'POST /portal/{orgID}/key-requests/{requestID}/key': ['Meta.key'],
      'POST /portal/{orgID}/keys/{keyHash}/roll': ['Meta.key'],
    });
    for (const r of routeList.filter((x) => x.secrets?.length)) expect(r.idempotent, r.path).toBe(true);
  });
});
