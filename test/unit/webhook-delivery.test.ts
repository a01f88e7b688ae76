/** The pure parts of webhook delivery (contract §11) and the delivery-time address guard. */
import { describe, expect, it } from 'vitest';
import { crossedTriggers, deliveryIdOf } from '../../shared/domain/events';
import { nextDelay, parseRetrySchedule } from '../../shared/domain/retry-schedule';
import { signatureHeader, verifySignature } from '../../shared/domain/webhook-signature';
import { callWebhook } from '../../shared/net/webhook-call';

describe('TriggerExceeded crossings', () => {
  it('each percentage is crossed by exactly one count of a window', () => {
    const hits = new Map<number, number[]>();
    for (let used = 1; used <= 10; used++) for (const p of crossedTriggers([50, 80, 100], 10, used)) hits.set(p, [...(hits.get(p) ?? []), used]);
    expect(Object.fromEntries(hits)).toEqual({ 50: [5], 80: [8], 100: [10] });
    // A percentage below one unit is crossed by the first; invalid limits never.
    expect(crossedTriggers([1, 0, -5, 150, Number.NaN], 3, 1)).toEqual([1]);
    expect(crossedTriggers(null, 10, 5)).toEqual([]);
  });
});

describe('HOOK_RETRY_SECONDS', () => {
  it('defaults to the documented schedule and names a bad entry', () => {
    expect(parseRetrySchedule(undefined)).toEqual([10, 60, 300, 1800, 7200, 21600]);
    expect(parseRetrySchedule(' 1, 2 ')).toEqual([1, 2]);
    expect(() => parseRetrySchedule('1,x')).toThrow(/"x"/);
    expect(() => parseRetrySchedule('1,,2')).toThrow(/HOOK_RETRY_SECONDS/);
    expect(nextDelay([1, 2], 1)).toBe(1);
    expect(nextDelay([1, 2], 3)).toBeUndefined();
  });
});

describe('signatures and ids', () => {
  it('a signature verifies only with its secret, body and time', () => {
    const h = signatureHeader('s1', 1700000000, '{"a":1}');
    expect(verifySignature(h, '{"a":1}', 's1')).toBe(true);
    expect(verifySignature(h, '{"a":2}', 's1')).toBe(false);
    expect(verifySignature(h, '{"a":1}', 's2')).toBe(false);
    expect(verifySignature(h.replace('t=1700000000', 't=1700000001'), '{"a":1}', 's1')).toBe(false);
  });

  it('a delivery id depends only on its event and hook, and sorts by time', () => {
    expect(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h')).toBe(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h'));
    expect(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h')).not.toBe(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h2'));
    expect(deliveryIdOf('2026-01-01T00:00:00Z', 'e', 'h') < deliveryIdOf('2026-01-02T00:00:00Z', 'a', 'a')).toBe(true);
  });
});

describe('the delivery-time address guard', () => {
  const req = (url: string) => ({ method: 'POST', url, headers: {}, body: '{}' });
  it('refuses a name that resolves to a private, loopback or metadata address, before any connection', async () => {
    for (const address of ['10.0.0.7', '127.0.0.1', '169.254.169.254', '::1', 'fd00::1']) {
      const r = await callWebhook(req('https://hooks.example/x'), { allowPrivate: false, resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }] });
      expect(r, address).toMatchObject({ refused: true, error: expect.stringContaining('refused') });
      expect(r.status).toBeUndefined();
    }
  });

  it('refuses when any of the answers is private (no choosing the public one)', async () => {
    const r = await callWebhook(req('https://hooks.example/x'), {
      allowPrivate: false,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.1.1.1', family: 4 }],
    });
    expect(r.refused).toBe(true);
  });

  it('refuses a non-http scheme', async () => {
    expect((await callWebhook(req('ftp://hooks.example/x'), { allowPrivate: true })).refused).toBe(true);
  });
});
