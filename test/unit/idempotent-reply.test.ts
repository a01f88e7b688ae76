import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openReply, packReply } from '../../shared/domain/idempotent-reply';
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
