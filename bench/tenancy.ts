/**
 * `npm run bench:tenancy`: the noisy-neighbour figures of RELIABILITY.md "Tenancy". Everything runs
 * in this process as `npm start` runs it (DynamoDB Local in memory, the local server, the local
 * change feed), with real receivers on 127.0.0.1:
 *
 * - routing work per change-feed record: the DynamoDB calls the delivery handler makes for one
 *   key update, counted at the client, for the case (6 APIs each with 3,000 handlers
 *   naming one hook, a key granting all 6) and for the widest fan-out the limits allow;
 * - organisation B's Ping delay (from `POST /api/hooks/{id}/test` to B's receiver): alone, right
 *   after organisation A's one key event fanned out to 100 hooks on a receiver that never answers
 *   (`fan-out`), while A has 300 deliveries on it (`tarpits`), and while A's three key events
 *   making those 300 are still being routed (`tarpits-routing`).
 *
 * Prints a JSON report; the same script runs against any revision (it uses routes and the change
 * feed handler only), which is how the "before" figures were taken.
 */
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { handler as changeFeed } from '../functions/hooks/change-feed';
import { startChangeFeed } from '../infra/local/change-feed';
import { awaitLocalCommits } from '../infra/local/commit-wait';
import { startDynamoLocal } from '../infra/local/dynamodb-local';
import { ensureTable } from '../infra/local/ensure-table';
import { createLocalServer } from '../infra/local/server';
import { resetConfig } from '../shared/config';
import { resetSecrets } from '../shared/secrets';
import { ddb, resetClient } from '../shared/store/db/client';
import { dueDeliveries } from '../shared/store/hook-deliveries';
import { request } from '../test/support/client';
import { startReceiver, startTarpit } from '../test/support/receiver';

const GW = 'bench-gw-secret';
const ADMIN = 'bench-admin-secret';
let base = '';
let tables = 0;
const calls = new Map<string, number>();

const gw = (method: string, path: string, body?: unknown) => request(base, method, path, { body, headers: { 'x-gw-authorization': GW } });
const admin = (method: string, path: string, body?: unknown) => request(base, method, path, { body, headers: { 'admin-auth': ADMIN } });
const dash = (key: string, method: string, path: string, body?: unknown) => request(base, method, path, { body, headers: { authorization: `Bearer ${key}` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh table (so scenarios do not see each other's deliveries), DynamoDB calls counted by command. */
async function freshTable(endpoint: string): Promise<string> {
  const table = `tenancy-${++tables}`;
  process.env.TABLE_NAME = table;
  resetConfig();
  resetClient();
  await ensureTable(endpoint, table);
  awaitLocalCommits(ddb());
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName).replace(/Command$/, '');
      calls.set(name, (calls.get(name) ?? 0) + 1);
      const items = (args.input as { TransactItems?: unknown[] }).TransactItems;
      if (items) calls.set('TransactItems', (calls.get('TransactItems') ?? 0) + items.length);
      return next(args);
    },
    { step: 'initialize', name: 'benchCounter' },
  );
  return table;
}

async function tenant(name: string): Promise<{ orgId: string; key: string }> {
  const orgId = `${name}-${tables}`;
  const org = await admin('POST', '/admin/organisations', { id: orgId, owner_name: orgId });
  if (org.status !== 200) throw new Error(`org: ${org.text}`);
  const user = await admin('POST', '/admin/users', { org_id: orgId, email_address: `owner@${orgId}.example` });
  if (user.status !== 200) throw new Error(`user: ${user.text}`);
  return { orgId, key: user.body.Meta.access_key as string };
}

async function hooks(key: string, n: number, target: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await dash(key, 'POST', '/api/hooks', { name: `h${i}`, method: 'POST', target_path: target });
    if (r.status !== 200) throw new Error(`hook ${i}: ${r.status} ${r.text}`);
    ids.push(r.body.Meta as string);
  }
  return ids;
}

const handler = (hookId: string) => ({ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: hookId, event_timeout: 0 } });

/** A classic API of the organisation routing each of `events` to each hook of `hookIds`; the answer's status. */
async function api(orgId: string, apiId: string, events: string[], hookIds: string[]): Promise<{ status: number; text: string }> {
  const r = await gw('POST', '/gw/apis', {
    api_id: apiId,
    name: apiId,
    org_id: orgId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
    event_handlers: { events: Object.fromEntries(events.map((e) => [e, hookIds.map(handler)])) },
  });
  return { status: r.status, text: r.text.slice(0, 300) };
}

const rights = (apiIds: string[]) => Object.fromEntries(apiIds.map((id) => [id, { api_id: id, api_name: id, versions: ['Default'] }]));

async function makeKey(orgId: string, apiIds: string[]): Promise<{ key: string; hash: string }> {
  const r = await gw('POST', '/gw/keys/create', { org_id: orgId, access_rights: rights(apiIds) });
  if (r.status !== 200) throw new Error(`key: ${r.text}`);
  return { key: r.body.key as string, hash: r.body.key_hash as string };
}

/** The DynamoDB calls the delivery handler makes for one update of the key (a stream MODIFY record). */
async function routingWork(hash: string): Promise<Record<string, number>> {
  const out = await ddb().send(new GetCommand({ TableName: process.env.TABLE_NAME!, Key: { PK: `KEY#${hash}`, SK: 'KEY' } }));
  const item = out.Item!;
  const image = (v: Record<string, unknown>) => marshall(v, { removeUndefinedValues: true, convertClassInstanceToMap: true }) as never;
  calls.clear();
  const started = Date.now();
  await changeFeed({
    Records: [
      {
        eventID: `bench-${Date.now()}`,
        eventName: 'MODIFY',
        dynamodb: {
          ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
          OldImage: image(item),
          NewImage: image({ ...item, version: Number(item.version) + 1 }),
        },
      },
    ],
  } as never);
  return { ...Object.fromEntries(calls), ms: Date.now() - started };
}

/** Milliseconds from B's `POST /api/hooks/{id}/test` to its arrival at B's receiver (undefined: not within `limitMs`). */
async function pingDelay(b: { key: string }, hookId: string, rx: { calls: unknown[] }, limitMs = 120_000): Promise<number | undefined> {
  const before = rx.calls.length;
  const started = Date.now();
  const r = await dash(b.key, 'POST', `/api/hooks/${hookId}/test`);
  if (r.status !== 200) throw new Error(`ping: ${r.status} ${r.text}`);
  while (rx.calls.length === before) {
    if (Date.now() - started > limitMs) return undefined;
    await sleep(20);
  }
  return Date.now() - started;
}

/**
 * A's key events on 5 APIs × 20 hooks (100 hooks) on a receiver that never answers, and B's Ping
 * once A's calls hang: right away, or (`routed`) once all of A's deliveries exist, so only their
 * attempts are under way.
 */
async function noisyNeighbour(endpoint: string, table: string, aEvents: 1 | 3, routed: boolean): Promise<Record<string, unknown>> {
  const tarpit = await startTarpit();
  const rx = await startReceiver();
  const a = await tenant('orga');
  const b = await tenant('orgb');
  const aHooks = await hooks(a.key, 100, tarpit.url);
  const [bHook] = await hooks(b.key, 1, rx.url);
  const apiIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const id = `noisy-${tables}-${i}`;
    const r = await api(a.orgId, id, ['TokenCreated', 'TokenUpdated', 'TokenDeleted'], aHooks.slice(i * 20, i * 20 + 20));
    if (r.status !== 200) throw new Error(`api: ${r.text}`);
    apiIds.push(id);
  }
  const feed = startChangeFeed({ endpoint, tableName: table, pollMs: 100, dueMs: 250, log: () => {} });
  try {
    const alone = await pingDelay(b, bHook!, rx);
    const started = Date.now();
    const { key } = await makeKey(a.orgId, apiIds);
    if (aEvents === 3) {
      const session = { org_id: a.orgId, access_rights: rights(apiIds), alias: 'changed' };
      const upd = await dash(a.key, 'PUT', `/api/apis/${apiIds[0]}/keys/${key}`, session);
      if (upd.status !== 200) throw new Error(`key update: ${upd.text}`);
      const del = await gw('DELETE', `/gw/keys/${key}`);
      if (del.status !== 200) throw new Error(`key delete: ${del.text}`);
    }
    if (routed) {
      while ((await dueDeliveries(Date.now() + 86_400_000, 1000)).filter((d) => d.org_id === a.orgId).length < 100 * aEvents && Date.now() - started < 120_000)
        await sleep(100);
    }
    // A's deliveries are under way (the first calls hang at the tarpit) before B pings.
    while (tarpit.count() < 10 && Date.now() - started < 60_000) await sleep(20);
    await sleep(1_000);
    const hanging = tarpit.count();
    const delay = await pingDelay(b, bHook!, rx);
    return {
      ping_alone_ms: alone,
      a_deliveries: 100 * aEvents,
      a_calls_hanging_when_b_pinged: hanging,
      a_calls_open_at_once_max: tarpit.maxOpen(),
      ping_under_noise_ms: delay ?? '> 120000',
    };
  } finally {
    await Promise.all([tarpit.close(), rx.close()]);
    await feed.stop();
  }
}

async function main() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dynamo = await startDynamoLocal(null);
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    GW_SECRET: GW,
    ADMIN_SECRET: ADMIN,
    SERVER_SECRET: 'bench-server-secret',
    ALLOW_PRIVATE_TARGETS: '1',
    LOG_LEVEL: 'error',
  });
  resetSecrets();
  const server = createLocalServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const report: Record<string, unknown> = {};
  const only = process.argv.slice(2);
  const want = (name: string) => only.length === 0 || only.includes(name);
  try {
    if (want('routing-issue')) {
      // The case: 6 APIs × 3,000 handlers naming one hook for TokenUpdated, one key on all 6.
      await freshTable(dynamo.endpoint);
      const r = await tenant('orgr');
      const [hook] = await hooks(r.key, 1, 'https://hooks.example/x');
      const apiIds: string[] = [];
      const answers: Array<{ status: number; text: string }> = [];
      for (let i = 0; i < 6; i++) {
        const id = `issue-${i}`;
        const a = await api(
          r.orgId,
          id,
          ['TokenUpdated'],
          Array.from({ length: 3000 }, () => hook!),
        );
        answers.push(a);
        if (a.status === 200) apiIds.push(id);
      }
      report['routing-issue'] = apiIds.length
        ? { apis_stored: apiIds.length, per_record: await routingWork((await makeKey(r.orgId, apiIds)).hash) }
        : { refused_at_write: answers[0] };
    }
    if (want('routing-widest')) {
      // The widest fan-out the limits allow: 100 hooks, 150 APIs each routing TokenUpdated to 20 of them, one key on all.
      await freshTable(dynamo.endpoint);
      const w = await tenant('orgw');
      const ids = await hooks(w.key, 100, 'https://hooks.example/x');
      const apiIds: string[] = [];
      for (let i = 0; i < 150; i++) {
        const id = `wide-${i}`;
        const picked = Array.from({ length: 20 }, (_, j) => ids[(i * 20 + j) % 100]!);
        const a = await api(w.orgId, id, ['TokenUpdated'], picked);
        if (a.status !== 200) throw new Error(`api ${id}: ${a.text}`);
        apiIds.push(id);
      }
      report['routing-widest'] = { apis: 150, per_record: await routingWork((await makeKey(w.orgId, apiIds)).hash) };
    }
    if (want('fan-out')) report['fan-out'] = await noisyNeighbour(dynamo.endpoint, await freshTable(dynamo.endpoint), 1, false);
    if (want('tarpits')) report.tarpits = await noisyNeighbour(dynamo.endpoint, await freshTable(dynamo.endpoint), 3, true);
    if (want('tarpits-routing')) report['tarpits-routing'] = await noisyNeighbour(dynamo.endpoint, await freshTable(dynamo.endpoint), 3, false);
    console.log(JSON.stringify(report, null, 2));
  } finally {
    server.closeAllConnections();
    server.close();
    await dynamo.stop();
  }
  process.exit(0);
}

void main();
