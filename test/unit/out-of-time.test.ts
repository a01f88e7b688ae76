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

it("the storage's own 5xx after the SDK's retries (DynamoDB Local's lock timeout under load) answers 503, as a busy table does", () => {
  const lock = Object.assign(new Error('This action timed out because it too long waiting for a lock.'), {
    name: 'InternalServerError',
    $fault: 'server',
    $metadata: { httpStatusCode: 500, attempts: 3 },
  });
  const answer = errorResult('dashboard', lock, 'r3');
  expect(answer.statusCode).toBe(503);
  expect(JSON.parse(answer.body)).toMatchObject({ Status: 'Error', Message: expect.stringContaining('Storage is busy') });
  // Not one of ours that merely says so, nor a client-side fault of the SDK.
  expect(errorResult('dashboard', Object.assign(new Error('x'), { name: 'InternalServerError' }), 'r4').statusCode).toBe(500);
  expect(errorResult('dashboard', Object.assign(new Error('x'), { $fault: 'client', $metadata: {} }), 'r5').statusCode).toBe(500);
});
