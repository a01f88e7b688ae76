/**
 * The local stage's commit wait (infra/local/commit-wait.ts), against a stand-in DynamoDB Local
 * that logs what reaches it: a transactional write resolves only after a ListTables sent after
 * the transaction's answer has been answered, by the store's client (npm start, the tests'
 * stage) and by the emulator's AWS endpoint alike. The loss itself, against the real DynamoDB
 * Local, is shown by scripts/durability.ts (test/durability/sigkill.test.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { awaitLocalCommits, commitBarrier } from '../../infra/local/commit-wait';
import { startAwsEndpoint } from '../../infra/local/emulator/aws-endpoint';

interface Fake {
  endpoint: string;
  log: string[];
  /** The credential scope (access key/date/region) of each probe. */
  probeScopes: string[];
  close(): Promise<void>;
}

/** Answers TransactWriteItems `{}` (logged `answered <id>`), ListTables (logged `probe`), anything else `{}`. */
async function fakeDynamoLocal(opts: { probeStatus?: number } = {}): Promise<Fake> {
  const log: string[] = [];
  const probeScopes: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target']).split('.')[1];
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(payload));
      };
      if (operation === 'TransactWriteItems') {
        const id = JSON.parse(body).TransactItems[0].Put.Item.PK.S;
        log.push(`answered ${id}`);
        return send(200, {});
      }
      if (operation === 'ListTables') {
        log.push('probe');
        probeScopes.push(/Credential=([^,]*)/.exec(String(req.headers.authorization))?.[1] ?? '');
        if (opts.probeStatus) return send(opts.probeStatus, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'down' });
        return send(200, { TableNames: [] });
      }
      log.push(operation ?? '?');
      send(200, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    probeScopes,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function fake(opts?: { probeStatus?: number }): Promise<Fake> {
  const f = await fakeDynamoLocal(opts);
  open.push(f);
  return f;
}

const clientOf = (endpoint: string, accessKeyId = 'local', region = 'us-east-1') =>
  new DynamoDBClient({ endpoint, region, credentials: { accessKeyId, secretAccessKey: 'x' }, maxAttempts: 1 });

const transaction = (id: string) =>
  new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: 'gw-test', Item: { PK: { S: id }, SK: { S: 'A' } } } }] });

/** Sends and logs `resolved <id>` (or `rejected <id>`) into the stand-in's log when the caller gets the answer. */
async function sent(log: string[], id: string, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
    log.push(`resolved ${id}`);
  } catch {
    log.push(`rejected ${id}`);
  }
}

/** Each transaction resolved after a probe that reached the database after its answer. */
function everyResolvedAfterItsProbe(log: string[], ids: string[]): void {
  for (const id of ids) {
    const answered = log.indexOf(`answered ${id}`);
    const resolved = log.indexOf(`resolved ${id}`);
    expect(answered, log.join(', ')).toBeGreaterThanOrEqual(0);
    expect(resolved, log.join(', ')).toBeGreaterThan(answered);
    expect(log.slice(answered, resolved), `${id}: ${log.join(', ')}`).toContain('probe');
  }
}

describe('commit barrier', () => {
  it('shares one probe among the callers of one turn and sends another for a caller after it was sent', async () => {
    const pending: Array<() => void> = [];
    const barrier = commitBarrier(() => new Promise<void>((r) => pending.push(r)));
    const first = [barrier(), barrier(), barrier()];
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(1);
    // A caller after the probe went out is not covered by it.
    const later = barrier();
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(2);
    let laterDone = false;
    void later.then(() => (laterDone = true));
    pending[0]!();
    await Promise.all(first);
    expect(laterDone).toBe(false);
    pending[1]!();
    await later;
  });
});

describe('the store client of the local stage (awaitLocalCommits)', () => {
  it('resolves a transaction only after a ListTables sent after its answer was answered', async () => {
    const db = await fake();
    const client = clientOf(db.endpoint, 'someone', 'eu-west-1');
    awaitLocalCommits(client);
    await sent(db.log, 'one', () => client.send(transaction('one')));
    expect(db.log).toEqual(['answered one', 'probe', 'resolved one']);
    // As the client's caller: without -sharedDb, DynamoDB Local keeps a database file per access key and region.
    expect(db.probeScopes).toEqual([expect.stringMatching(/^someone\/\d{8}\/eu-west-1\/dynamodb\/aws4_request$/)]);
  });

  it('does the same for the document client the store uses, for every one of concurrent transactions', async () => {
    const db = await fake();
    const doc = DynamoDBDocumentClient.from(clientOf(db.endpoint));
    awaitLocalCommits(doc);
    const ids = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(
      ids.map((id) =>
        sent(db.log, id, () => doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'gw-test', Item: { PK: id, SK: 'A' } } }] }))),
      ),
    );
    everyResolvedAfterItsProbe(db.log, ids);
  });

  it('sends no probe for writes DynamoDB Local commits before answering', async () => {
    const db = await fake();
    const client = clientOf(db.endpoint);
    awaitLocalCommits(client);
    await client.send(new PutItemCommand({ TableName: 'gw-test', Item: { PK: { S: 'p' }, SK: { S: 'A' } } }));
    expect(db.log).toEqual(['PutItem']);
  });

  it('fails the write when the probe keeps failing (three tries): it is not known to be committed', async () => {
    const db = await fake({ probeStatus: 500 });
    const client = clientOf(db.endpoint);
    awaitLocalCommits(client);
    await sent(db.log, 'one', () => client.send(transaction('one')));
    expect(db.log).toEqual(['answered one', 'probe', 'probe', 'probe', 'rejected one']);
  });

  it('answers as DynamoDB Local does with LOCAL_COMMIT_WAIT=off (the switch that shows the loss)', async () => {
    const db = await fake();
    const client = clientOf(db.endpoint);
    process.env.LOCAL_COMMIT_WAIT = 'off';
    try {
      awaitLocalCommits(client);
    } finally {
      delete process.env.LOCAL_COMMIT_WAIT;
    }
    await sent(db.log, 'one', () => client.send(transaction('one')));
    expect(db.log).toEqual(['answered one', 'resolved one']);
  });
});

describe("the emulator's AWS endpoint", () => {
  it('forwards a transaction and answers it only after a ListTables sent after its answer was answered', async () => {
    const db = await fake();
    const endpoint = await startAwsEndpoint({
      dynamodbEndpoint: db.endpoint,
      identities: new Map([['LOCALFn', { name: 'fn', logicalId: 'Fn', statements: [{ effect: 'Allow', actions: ['dynamodb:*'], resources: ['*'] }] }]]),
      secrets: new Map(),
      region: 'us-east-1',
      account: '000000000000',
      onDenied: () => undefined,
    });
    open.push(endpoint);
    const client = clientOf(endpoint.url, 'LOCALFn');
    await sent(db.log, 'one', () => client.send(transaction('one')));
    await client.send(new PutItemCommand({ TableName: 'gw-test', Item: { PK: { S: 'p' }, SK: { S: 'A' } } }));
    expect(db.log).toEqual(['answered one', 'probe', 'resolved one', 'PutItem']);
    expect(db.probeScopes).toEqual([expect.stringMatching(/^local\/\d{8}\/us-east-1\//)]);
  });
});
