import { inject } from 'vitest';

/**
 * The DynamoDB Local of this test worker. DynamoDB Local runs every statement on one database
 * thread, so one instance for the whole run kept the suite waiting on a single core while the other
 * idled: each worker has its own (test/support/global-setup.ts), and its files their own tables in it.
 */
export function workerDynamoEndpoint(): string {
  const endpoints = inject('dynamoEndpoints');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return endpoints[(Math.max(worker, 1) - 1) % endpoints.length]!;
}
