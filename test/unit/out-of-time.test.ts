/**
 * A request that runs out of time (Middy's timeoutEarlyResponse, before the function's own
 * timeout) answers 503 with Retry-After in its group's envelope, as a busy table does: a throttled
 * hot key's retries under load are overload, not a fault (test/e2e/hot-keys.test.ts saw 500s).
 */
import middy from '@middy/core';
import { expect, it } from 'vitest';
import { errorResult } from '../../shared/http/respond';

it("Middy's early timeout answers 503 with Retry-After in the group's envelope; other errors stay 500", async () => {
  const slow = middy({ timeoutEarlyInMillis: 50 }).handler(() => new Promise(() => {}));
  const err = await slow({}, { getRemainingTimeInMillis: () => 60 } as never).then(
    () => undefined,
    (e: unknown) => e,
  );
  const timedOut = errorResult('gateway', err, 'r1');
  expect(timedOut.statusCode).toBe(503);
  expect(timedOut.headers['Retry-After']).toBe('1');
  expect(JSON.parse(timedOut.body)).toMatchObject({ status: 'error', message: expect.stringContaining('ran out of time') });
  const other = Object.assign(new Error('x'), { name: 'TimeoutError' });
  expect(errorResult('gateway', other, 'r2').statusCode).toBe(500);
});
