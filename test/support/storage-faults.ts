/**
 * Storage failures on demand for the in-process local stage: the next table write that is not an
 * Idempotency-Key record nor an organisation's request-limit counter (both written before the
 * route's own work) fails as DynamoDB throttling does (the route answers 503).
 */
import { ddb } from '../../shared/store/db/client';

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);
const NAME = 'throttleNextWrite';

export async function withThrottledWrite<T>(run: () => Promise<T>): Promise<{ result: T; throttled: number }> {
  let throttled = 0;
  const stack = ddb().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify(args.input);
      const bookkeeping = input.includes('"IDEMP#') || input.includes('"ORGLIMIT#');
      if (throttled === 0 && WRITES.has(context.commandName ?? '') && !bookkeeping) {
        throttled++;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' });
      }
      return next(args);
    },
    { step: 'initialize', name: NAME, override: true },
  );
  try {
    return { result: await run(), throttled };
  } finally {
    stack.remove(NAME);
  }
}
