/**
 * When keeping an idempotent reply fails after the request succeeded (contract §3), the request
 * still answers its success, its key is not released (a retry would run the create again), and
 * the record is marked done without a reply. The store failure is injected: DynamoDB Local does
 * not fail on demand.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteDef } from '../../shared/route-def';

const calls: string[] = [];
let keepFails = false;
vi.mock('../../shared/services/idempotency', () => ({
  claimIdempotencyKey: vi.fn(),
  completeIdempotencyKey: vi.fn(async () => {
    calls.push('complete');
    if (keepFails) throw new Error('ProvisionedThroughputExceededException');
  }),
  completeIdempotencyKeyWithoutReply: vi.fn(async () => void calls.push('done-without-reply')),
  releaseIdempotencyKey: vi.fn(async () => void calls.push('release')),
}));

const { idempotency } = await import('../../shared/http/middleware/idempotency');
const { routes } = await import('../../shared/routes');

const route = (Object.values(routes) as RouteDef[]).find((r) => r.idempotent)!;
const request = () =>
  ({
    event: {},
    response: { statusCode: 200, headers: {}, body: '{"Status":"OK"}' },
    internal: { idempotency: { scope: 's', key: 'k' } },
  }) as any;

beforeEach(() => {
  calls.length = 0;
  keepFails = false;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('a reply that cannot be kept', () => {
  it('leaves the success answer as it is and marks the record done without a reply; the key is not released', async () => {
    keepFails = true;
    const r = request();
    await expect(idempotency(route).after!(r)).resolves.toBeUndefined();
    expect(r.response.statusCode).toBe(200);
    expect(calls).toEqual(['complete', 'done-without-reply']);
  });

  it('a kept reply is only completed', async () => {
    await idempotency(route).after!(request());
    expect(calls).toEqual(['complete']);
  });
});
