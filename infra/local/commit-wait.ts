/**
 * DynamoDB Local acknowledges a transaction before it has committed it. Its SQLite layer runs
 * every statement on one database thread, in order; TransactWriteItems (and PartiQL's
 * ExecuteTransaction) queue their COMMIT on that thread and answer without waiting for it
 * (`SQLiteDBAccess.commitTransaction` in the jar: `queue.execute(commit)` with no `get()`). If the
 * JVM is killed before the thread reaches the COMMIT, SQLite rolls the transaction back on the
 * next start: an acknowledged write is lost. Any later request that touches the database waits on
 * the same thread behind that COMMIT, so its answer proves the COMMIT has run (README "Local
 * stage durability" has the measurements).
 *
 * The local stage therefore answers a transactional write only after one such request has been
 * answered: `ListTables` with `Limit: 1`, the cheapest (no table, no item). Transactions answered
 * in the same turn of the event loop share one. Local stages only: DynamoDB proper is durable
 * when it answers, so nothing of this is in the cloud code path.
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The operations whose answer can precede their COMMIT (wire names, as in X-Amz-Target). */
export const TRANSACTIONAL_WRITES: ReadonlySet<string> = new Set(['TransactWriteItems', 'ExecuteTransaction']);

/**
 * `LOCAL_COMMIT_WAIT=off` answers as DynamoDB Local does: only to show the loss (the durability
 * check's control runs), never for use.
 */
export const commitWaitEnabled = (env: NodeJS.ProcessEnv = process.env): boolean => env.LOCAL_COMMIT_WAIT !== 'off';

/**
 * A function that resolves once DynamoDB Local has run every COMMIT it had queued when the
 * function was called. `probe` sends one request that reaches the database. Callers in one turn
 * of the event loop share a probe; a caller after the probe was sent gets the next one, because
 * only a request sent after a transaction's answer is queued behind its COMMIT.
 */
export function commitBarrier(probe: () => Promise<unknown>): () => Promise<void> {
  let next: Promise<void> | undefined;
  return () =>
    (next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      next = undefined;
      await probe();
    }));
}

/**
 * The cheapest request DynamoDB Local answers from its database, sent by a client of its own (so
 * no middleware of the service's client counts it as the route's request) with the service
 * client's endpoint, region and credentials: without `-sharedDb` the last two pick the file.
 */
export function listOneTable(of: DynamoDBClient | DynamoDBDocumentClient): () => Promise<unknown> {
  const { endpoint, region, credentials } = of.config;
  const client = new DynamoDBClient({ endpoint, region, credentials, maxAttempts: of.config.maxAttempts });
  return () => client.send(new ListTablesCommand({ Limit: 1 }));
}

/**
 * Makes `client` resolve a transactional write only after DynamoDB Local has committed it. The
 * document client shares its client's middleware stack, so either may be passed. A failed probe
 * fails the write: it is not known to be durable, so it must not be acknowledged.
 */
export function awaitLocalCommits(client: DynamoDBClient | DynamoDBDocumentClient): void {
  if (!commitWaitEnabled()) return;
  const barrier = commitBarrier(listOneTable(client));
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (TRANSACTIONAL_WRITES.has(String(context.commandName).replace(/Command$/, ''))) await barrier();
      return out;
    },
    { step: 'initialize', name: 'awaitLocalCommit', override: true },
  );
}
