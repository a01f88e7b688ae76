/**
 * Storage failures on demand for the in-process local stage, for whatever sends through the
 * store's client (requests and the change feed alike):
 * - withThrottledWrite: the next table write that is not an Idempotency-Key record nor an
 *   organisation's request-limit counter (both written before the route's own work) fails as
 *   DynamoDB throttling does (the route answers 503);
 * - withBrokenWrites: every table write a predicate picks fails as an error the service does not
 *   expect (a route answers 500; the change feed hands the record over again).
 */
import { ddb } from '../../shared/store/db/client';

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/** Runs `run` with `fault` before every command the client sends (as the SDK's first middleware), then removes it. */
async function withFault<T>(name: string, fault: (command: string, input: string) => Promise<void>, run: () => Promise<T>): Promise<T> {
  const stack = ddb().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      await fault(context.commandName ?? '', JSON.stringify(args.input));
      return next(args);
    },
    { step: 'initialize', name, override: true },
  );
  try {
    return await run();
  } finally {
    stack.remove(name);
  }
}

export async function withThrottledWrite<T>(run: () => Promise<T>): Promise<{ result: T; throttled: number }> {
  let throttled = 0;
  const result = await withFault(
    'throttleNextWrite',
    async (command, input) => {
      // Bookkeeping: an idempotency record, or a limit's unit spent on its own (a unit riding in a write's transaction is that write).
      const bookkeeping = input.includes('"IDEMP#') || (command === 'UpdateItemCommand' && input.includes('"ORGLIMIT#'));
      if (throttled === 0 && WRITES.has(command) && !bookkeeping) {
        throttled++;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' });
      }
    },
    run,
  );
  return { result, throttled };
}

/**
 * Runs `run` while every table write whose input (the command's JSON) `picks` fails, once the
 * promise `picks` answered settles (so a test can hold a failure until other work has started).
 */
export function withBrokenWrites<T>(picks: (input: string) => Promise<unknown> | false, run: () => Promise<T>): Promise<T> {
  return withFault(
    'breakPickedWrites',
    async (command, input) => {
      const held = WRITES.has(command) && picks(input);
      if (held === false) return;
      await held;
      throw Object.assign(new Error('storage failed in a way the service does not expect'), { name: 'InternalFailure' });
    },
    run,
  );
}
