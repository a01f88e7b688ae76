/**
 * Every route as Lambda bills it (issue 41 item 3): the synthesized stack in the emulator (IAM
 * enforced, each function on Lambda's Node), seeded by the world every suite uses, and each route's
 * accepted request sent again and again. Beside each invocation, a floor function (bundled the
 * same way, bench/lib/function-asset.ts REPLAY_SOURCE) sends exactly the DynamoDB calls that
 * invocation made, as it sent them, with the bare client, in the same waves. The ratio of their
 * warm billed Durations (ms, rounded up as Lambda bills) is what the route's own code costs on top
 * of its storage. Reads go first and deletes last, so each route meets the world whole; a request
 * that is not idempotent (a create, a delete) is measured on the path its repetition takes (409,
 * 404), which its floor replays too, and its statuses are named.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DynamoCall } from '../../infra/local/emulator/aws-endpoint';
import { createGateway } from '../../infra/local/emulator/gateway';
import type { Outcome } from '../../infra/local/emulator/runtime';
import { startEmulator } from '../../infra/local/emulator/stage';
import { feedStreamMappings } from '../../infra/local/emulator/stream-mappings';
import { routeList } from '../../shared/routes';
import type { RouteDef } from '../../shared/route-def';
import { concretePath } from '../../test/hardening/support/cases';
import { baseOf, paramsOf, probeSuccesses } from '../../test/hardening/support/probe';
import { cloudAssembly } from '../../test/support/assembly';
import { RouteClient, routeKey } from '../../test/support/route-client';
import { ADMIN_SECRET, GW_SECRET, SERVER_SECRET } from '../../test/support/table';
import { seedEveryRoute } from '../../test/support/world';
import type { Ctx } from '../lib/context';
import { DOCUMENT_REPLAY_SOURCE, functionAsset, REPLAY_SOURCE } from '../lib/function-asset';
import { putBack, readBefore, type Written, writtenBy } from '../lib/replay-state';
import { median, round, type Row } from '../lib/stats';
import { withYardsticks } from '../lib/yardsticks';

const FLOOR = 'BenchReplay';
/** The same calls through lib-dynamodb's document client, the stack's own client (DOCUMENT_REPLAY_SOURCE). */
const DOCUMENT_FLOOR = 'BenchDocumentReplay';
/** A route passes within this ratio of its floor, or within this many billed ms of it (Lambda bills whole ms). */
const TARGET = 1.3;
const SLACK_MS = 1;

/** Calls that were in flight together, in order: a call joins the wave under way when it started before any of the wave's calls ended. */
function wavesOf(calls: readonly DynamoCall[]): Array<Array<{ operation: string; body: string }>> {
  const waves: Array<Array<{ operation: string; body: string }>> = [];
  let waveEnd = -Infinity;
  for (const c of [...calls].sort((a, b) => a.startedMs - b.startedMs)) {
    const call = { operation: c.operation, body: c.body };
    if (waves.length && c.startedMs < waveEnd) {
      waves.at(-1)!.push(call);
      waveEnd = Math.min(waveEnd, c.endedMs);
    } else {
      waves.push([call]);
      waveEnd = c.endedMs;
    }
  }
  return waves;
}

/** Reads first, deletes last: each route meets the world as the seeding left it, as far as the ones before allow. */
const methodOrder = (r: RouteDef) => ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'].indexOf(r.method);

interface Measured {
  route: string;
  ratio: number;
  routeMs: number;
  floorMs: number;
  /** The billed p50 of the same calls through the document client (lib-dynamodb), the stack's client. */
  documentMs: number;
  calls: number;
  statuses: string;
  /** The same ratio of the handlers' own time, measured inside the function's process (no IPC, no runtime). */
  handlerRatio: number;
}

export async function routes(ctx: Ctx, opts = { pairs: 25, warm: 3 }): Promise<Row[]> {
  const { template } = await cloudAssembly();
  // The floors run on a route function's role and memory; each route's own policy is put on them before it is measured.
  const copy = withYardsticks(
    template,
    undefined,
    {
      [FLOOR]: { name: 'replay', asset: await functionAsset('replay', REPLAY_SOURCE) },
      [DOCUMENT_FLOOR]: { name: 'document-replay', asset: await functionAsset('document-replay', DOCUMENT_REPLAY_SOURCE) },
    },
    'routes',
  );
  const calls: DynamoCall[] = [];
  const denied: string[] = [];
  const tableName = `gw-bench-routes-${Date.now().toString(36)}`;
  const emulator = await startEmulator({
    templateFile: copy.file,
    dataDir: join(copy.dir, 'data'),
    tableName,
    dynamoEndpoint: ctx.stage.endpoint,
    env: { GW_SECRET, ADMIN_SECRET, SERVER_SECRET },
    log: (line) => line.startsWith('DENIED ') && denied.push(line),
    onDynamoCall: (c) => calls.push(c),
  });
  const fns = [...emulator.stage.functions.values()];
  const floor = fns.find((f) => f.name === 'replay')!;
  const documentFloor = fns.find((f) => f.name === 'document-replay')!;
  const last = new Map<string, Outcome>();
  const gateway = createGateway({
    routes: emulator.stage.routes,
    defaultFunction: emulator.stage.defaultFunction,
    invoke: async (id, event) => {
      const o = await emulator.invoke(id, event);
      last.set(id, o);
      return o;
    },
    executeApiArn: emulator.stage.executeApiArn,
    addHeaders: emulator.edgeHeaders,
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  const streams = feedStreamMappings({
    dynamoEndpoint: emulator.dynamoEndpoint,
    tableName,
    mappings: emulator.stage.streamMappings,
    dataDir: join(copy.dir, 'data'),
    invoke: emulator.invoke,
    log: () => {},
  });
  try {
    const c = new RouteClient(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}`);
    const seeded = await seedEveryRoute(c, 'bench-routes');
    await probeSuccesses(c, seeded);
    // The bench repeats every request: the world's organisation may make as many as it asks.
    const unlimited = { reads: 1_000_000, writes: 1_000_000, hook_tests: 1_000_000 };
    await c.ok('PUT', `/admin/organisations/${seeded.world.orgId}`, { limits: unlimited });
    // Measured alone: the stream's consumers (audit, usage, deliveries) stop once the world is seeded.
    await streams.stop();
    const measured: Measured[] = [];
    for (const r of [...routeList].sort((a, b) => methodOrder(a) - methodOrder(b))) {
      const fn = emulator.stage.routes.find((e) => e.routeKey === routeKey(r));
      if (!fn) continue;
      if (process.env.BENCH_ROUTES && !new RegExp(process.env.BENCH_ROUTES).test(routeKey(r))) continue;
      const logicalId = fn.functionId;
      // The floor signs as a function with the route's own policy: the emulator's IAM check of each call costs both the same.
      for (const f of [floor, documentFloor]) f.statements.splice(0, f.statements.length, ...emulator.stage.functions.get(logicalId)!.statements);
      const base = baseOf(c, seeded, r);
      const query = Object.keys(base.query).length ? `?${new URLSearchParams(base.query)}` : '';
      // A read asks for the world's own objects (the first accepted request may name one the seeding removed since).
      const params = r.method === 'GET' ? { ...base.params, ...paramsOf(seeded, r) } : base.params;
      const url = concretePath(r.path, params) + query;
      // Sent as a browser sends it: GET /openapi.json answers its document compressed then.
      const headers: Record<string, string> = {
        'accept-encoding': 'gzip, deflate, br',
        ...(base.body?.contentType ? { 'content-type': base.body.contentType } : {}),
      };
      const send = () => c.send(r.method, url, { body: base.body?.text, headers });
      // The route and its floors start in fresh containers and are invoked as often: a floor kept
      // warm by every route before would run its SDK calls JIT-hot against the route's cold ones.
      for (const id of [logicalId, floor.logicalId, documentFloor.logicalId]) emulator.runtimes.get(id)?.stop();
      const routeMs: number[] = [];
      const floorMs: number[] = [];
      const routeHandlerMs: number[] = [];
      const floorHandlerMs: number[] = [];
      const documentMs: number[] = [];
      /** Calls the replay had refused (a condition the route's own write made false) beyond those refused to the route. */
      let refusedMore = 0;
      const statuses = new Map<number, number>();
      let callCount = 0;
      /** What the previous call wrote: the items this one will likely write, read before it so each replay starts where it did. */
      let likely: Written[] = [];
      for (let i = 0; i < opts.warm + opts.pairs; i++) {
        const measuring = i >= opts.warm;
        const before = await readBefore(ctx.raw, likely);
        const mark = performance.now();
        const answer = await send();
        const o = last.get(logicalId);
        if (!o?.ok) continue;
        const mine = calls.filter((k) => k.logicalId === logicalId && k.startedMs >= mark);
        const waves = wavesOf(mine);
        const wrote = writtenBy(mine);
        // Each replay meets what the route met (untimed): a create's id is free again, a version where it was.
        const replay = async (id: string) => {
          await putBack(ctx.raw, before, wrote);
          return emulator.invoke(id, { waves });
        };
        const f = await replay(floor.logicalId);
        if (!f.ok) throw new Error(`the floor of ${routeKey(r)} failed: ${f.error.errorMessage}`);
        const d = await replay(documentFloor.logicalId);
        if (!d.ok) throw new Error(`the document client's floor of ${routeKey(r)} failed: ${d.error.errorMessage}`);
        likely = wrote;
        if (!measuring) continue;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        callCount = mine.length;
        const [bare, viaDocument] = [f.result, d.result] as Array<{ failed: number; convertMs?: number }>;
        documentMs.push(Math.ceil(d.durationMs - (viaDocument!.convertMs ?? 0)));
        // A write the put-back could not undo (an item neither read before nor provably created) may still refuse a replay.
        refusedMore = Math.max(refusedMore, Math.max(bare!.failed, viaDocument!.failed) - mine.filter((k) => k.status !== 200).length);
        routeMs.push(Math.ceil(o.durationMs));
        floorMs.push(Math.ceil(f.durationMs));
        routeHandlerMs.push(o.handlerMs ?? 0);
        floorHandlerMs.push(f.handlerMs ?? 0);
      }
      calls.length = 0;
      if (!routeMs.length) continue;
      const [a, b] = [median(routeMs), median(floorMs)];
      measured.push({
        route: routeKey(r),
        ratio: a / Math.max(b, 1),
        routeMs: a,
        floorMs: b,
        documentMs: median(documentMs),
        calls: callCount,
        handlerRatio: median(routeHandlerMs) / Math.max(median(floorHandlerMs), 0.001),
        statuses: [...statuses].map(([s, n]) => `${s}×${n}`).join(' ') + (refusedMore > 0 ? `; replays refused ${refusedMore} of ${callCount} calls` : ''),
      });
    }
    return rowsOf(measured, denied);
  } finally {
    await streams.stop().catch(() => {});
    gateway.close();
    gateway.closeAllConnections();
    await emulator.stop();
    rmSync(copy.dir, { recursive: true, force: true });
    rmSync(copy.file, { force: true });
  }
}

function rowsOf(measured: Measured[], denied: string[]): Row[] {
  const passes = (m: Measured) => m.ratio <= TARGET || m.routeMs - m.floorMs <= SLACK_MS;
  const sorted = [...measured].sort((a, b) => b.ratio - a.ratio);
  const detail: Record<string, string | number> = {
    routes_measured: measured.length,
    iam_denials: denied.length,
    first_denials: denied.slice(0, 3).join('; ') || 'none',
  };
  // One line per route, worst first: ratio, billed p50 of the route, of its floor and of the same calls through the
  // document client, its DynamoDB calls, the statuses it answered.
  for (const m of sorted)
    detail[m.route] =
      `${round(m.ratio)} (${m.routeMs} / ${m.floorMs} ms, document client ${m.documentMs} ms, handlers alone ${round(m.handlerRatio)}, ` +
      `${m.calls} calls, ${m.statuses})${passes(m) ? '' : ' miss'}`;
  const ok = measured.filter(passes).length;
  const nearDocument = measured.filter((m) => m.routeMs <= m.documentMs * TARGET || m.routeMs - m.documentMs <= SLACK_MS).length;
  return [
    {
      scenario: 'routes',
      measured: `routes whose warm billed Duration p50 is within ${TARGET}× (or ${SLACK_MS} ms) of their floor function (the same DynamoDB calls, bare client)`,
      value: ok,
      target: `= ${measured.length} (every route measured)`,
      pass: ok === measured.length && measured.length > 0 && denied.length === 0,
      detail,
    },
    {
      scenario: 'routes',
      measured: `routes within ${TARGET}× (or ${SLACK_MS} ms) of the same DynamoDB calls through the document client (lib-dynamodb, the stack's client)`,
      value: nearDocument,
      target: 'reported',
      pass: true,
      detail,
    },
    {
      scenario: 'routes',
      measured: `the slowest route (${sorted[0]?.route ?? 'none'}) / its floor, billed p50`,
      value: round(sorted[0]?.ratio ?? 0),
      target: `<= ${TARGET}`,
      pass: (sorted[0]?.ratio ?? Infinity) <= TARGET,
      detail,
    },
  ];
}
