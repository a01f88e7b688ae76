/**
 * DynamoDB Local acknowledges a transaction before it has committed it. Its SQLite layer runs
 * every statement on one database thread, in order; TransactWriteItems (and PartiQL's
 * ExecuteTransaction) queue their COMMIT on that thread and answer without waiting for it
 * (`SQLiteDBAccess.commitTransaction` in the jar: `queue.execute(commit)` with no `get()`). If the
 * JVM is killed before the thread reaches the COMMIT, SQLite rolls the transaction back on the
 * next start: an acknowledged write is lost. Any later request that touches the database waits on
 * the same thread behind that COMMIT, so its answer proves the COMMIT has run (docs/operating/local-stage.md has the measurements).
 *
 * The local stage therefore answers a transactional write only after one such request has been
 * answered: `ListTables` with `Limit: 1`, the cheapest (no table, no item). Transactions answered
 * in the same turn of the event loop share one. Local stages only: DynamoDB proper is durable
 * when it answers, so nothing of this is in the cloud code path.
 */
import { Agent, request } from 'node:http';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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

/** Where the probe goes, and as whom: without `-sharedDb` the access key and region pick the file. */
export interface ProbeTarget {
  endpoint: string;
  region: string;
  accessKeyId: string;
}

const agent = new Agent({ keepAlive: true });
const PROBE = '{"Limit":1}';

function listTablesOnce(t: ProbeTarget): Promise<void> {
  const url = new URL(t.endpoint);
  return new Promise<void>((resolve, reject) => {
    const req = request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        timeout: 30_000,
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': PROBE.length,
          'x-amz-target': 'DynamoDB_20120810.ListTables',
          // DynamoDB Local reads the caller from the credential scope and checks no signature.
          authorization: `AWS4-HMAC-SHA256 Credential=${t.accessKeyId}/20000101/${t.region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
        },
      },
      (res) => {
        res.resume();
        res.on('error', reject);
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`DynamoDB Local answered the commit probe ${res.statusCode}`))));
      },
    );
    req.on('timeout', () => req.destroy(new Error('DynamoDB Local did not answer the commit probe in 30 s')));
    req.on('error', reject);
    req.end(PROBE);
  });
}

/**
 * `ListTables` with `Limit: 1`, the cheapest request DynamoDB Local answers from its database (no
 * table, no item). Plain HTTP: through the SDK it costs twice as much (signing, middleware), and
 * the service client's own middleware would count it as the route's request. Tried three times
 * (a kept-alive connection may have just been closed); it changes nothing, so that is safe.
 */
export function listOneTable(target: ProbeTarget | (() => Promise<ProbeTarget>)): () => Promise<void> {
  let resolved: Promise<ProbeTarget> | undefined;
  return async () => {
    const t = await (resolved ??= typeof target === 'function' ? target() : Promise.resolve(target));
    for (let attempt = 1; ; attempt++) {
      try {
        return await listTablesOnce(t);
      } catch (e) {
        if (attempt === 3) throw e;
      }
    }
  };
}

type Client = DynamoDBClient | DynamoDBDocumentClient;

/** The service client's endpoint, region and access key. */
async function targetOf(client: Client): Promise<ProbeTarget> {
  const c = client.config;
  const at = await c.endpoint!();
  return {
    endpoint: `${at.protocol}//${at.hostname}${at.port ? `:${at.port}` : ''}${at.path}`,
    region: await c.region(),
    accessKeyId: (await c.credentials()).accessKeyId,
  };
}

/**
 * Makes `client` resolve a transactional write only after DynamoDB Local has committed it. The
 * document client shares its client's middleware stack, so either may be passed. A failed probe
 * fails the write: it is not known to be durable, so it must not be acknowledged.
 */
export function awaitLocalCommits(client: Client): void {
  if (!commitWaitEnabled()) return;
  if (!client.config.endpoint) throw new Error('the commit wait is for DynamoDB Local: the client has no endpoint');
  const barrier = commitBarrier(listOneTable(() => targetOf(client)));
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (TRANSACTIONAL_WRITES.has(String(context.commandName).replace(/Command$/, ''))) await barrier();
      return out;
    },
    { step: 'initialize', name: 'awaitLocalCommit', override: true },
  );
}
