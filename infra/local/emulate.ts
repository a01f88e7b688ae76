/**
 * npm run emulate: the synthesized stack on this machine, as the cloud runs it
 * (docs/operating/emulator.md). Routes, functions, environments, timeouts and IAM policies come
 * from the template, not from the route table; each function runs its bundle on Lambda's Node.
 */
import { createDataPlane } from './emulator/data-plane';
import { createGateway } from './emulator/gateway';
import { flag, parseArgs, settings, templateFor } from './emulator/cli';
import { startEmulator } from './emulator/stage';
import { feedStreamMappings } from './emulator/stream-mappings';
import { JavaMissingError } from './dynamodb-local';
import { consoleOnDemand, isConsolePath } from '../../console/host/static-files';

async function main() {
  // On Node 20 the SDK warns that its 2027 releases need Node 22; the lockfile pins releases that run on 20 (the functions run on Lambda's).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const args = parseArgs(process.argv.slice(2), ['synth']);
  const s = settings(process.env);
  const log = (line: string) => console.log(line);
  const templateFile = await templateFor(args, log);
  const emulator = await startEmulator({ templateFile, ...s, env: process.env, log });
  const { stage } = emulator;
  const authorized = stage.routes.filter((r) => r.authorizer).length;
  const server = createGateway({
    routes: stage.routes,
    defaultFunction: stage.defaultFunction,
    invoke: emulator.invoke,
    executeApiArn: stage.executeApiArn,
    log,
    addHeaders: emulator.edgeHeaders,
    site: { owns: isConsolePath, serve: consoleOnDemand({ log }).serve },
  });

  // -c dataPlane=on: the data-plane API on its own port, and its scheduled reconciler (the repair
  // pass) run every SCHEDULE_SECONDS instead of the cloud's interval; the stream triggers it too.
  const dp = emulator.dataPlane;
  const dataPlaneServer = dp
    ? createDataPlane({ account: dp.account, apiId: dp.apiId, invoke: emulator.invoke, executeApiArn: stage.executeApiArn })
    : undefined;
  const every = Math.max(1, Number(process.env.SCHEDULE_SECONDS) || 2) * 1000;
  const timers = (dp?.scheduled ?? []).map((fn) => {
    let running = false;
    return setInterval(() => {
      if (running) return;
      running = true;
      emulator.invoke(fn, { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }).finally(() => (running = false));
    }, every);
  });

  // The table stream's event source mappings (usage figures, audit trail, the reconciler's trigger).
  const streams = feedStreamMappings({
    dynamoEndpoint: emulator.dynamoEndpoint,
    tableName: s.tableName,
    mappings: stage.streamMappings,
    dataDir: s.dataDir,
    invoke: emulator.invoke,
    log,
  });

  const streamNames = stage.streamMappings.map((m) => stage.functions.get(m.functionId)?.name ?? m.functionId).join(', ');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    for (const t of timers) clearInterval(t);
    await streams.stop();
    dataPlaneServer?.close();
    dataPlaneServer?.closeAllConnections();
    server.close();
    server.closeAllConnections();
    await emulator.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const dataPlanePort = Number(process.env.DATA_PLANE_PORT) || s.port + 1;
  if (dataPlaneServer) await new Promise<void>((r) => dataPlaneServer.listen(dataPlanePort, s.host, r));
  server.listen(s.port, s.host, () => {
    const url = `http://${s.host}:${s.port}`;
    const nodes = [...emulator.nodes.entries()].map(([rt, n]) => `${rt} on node ${n.version}`).join(', ');
    console.log(
      [
        `Emulated cloud stage listening on ${url}`,
        `  template     ${templateFile}${flag(args, 'template') ? '' : ' (cdk synth)'}`,
        `  functions    ${stage.functions.size} (${nodes}), ${stage.routes.length} routes${stage.defaultFunction ? ' + $default' : ''}` +
          `${authorized ? `, ${authorized} behind Lambda authorizers` : ''}`,
        `  storage      ${emulator.storage}, table${stage.tables.length === 1 ? '' : 's'} ${stage.tables.map((t) => t.name).join(', ')}`,
        `  IAM          each function's template policy, checked on every DynamoDB and Secrets Manager call`,
        `  console      ${url}/console/ (console/dist, built on its first request when missing or stale)`,
        ...(dp
          ? [
              `  data plane   http://${s.host}:${dataPlanePort} (API ${dp.apiId}, ` +
                `reconciled every ${every / 1000} s by ${dp.scheduled.join(', ') || 'nothing'})`,
            ]
          : []),
        `  streams      ${streamNames || 'none'} fed from the table's stream`,
        ...emulator.secrets.map((x) => `  secret       ${x.envName}: ${x.value}`),
        ...stage.warnings.map((w) => `  note         ${w}`),
      ].join('\n'),
    );
  });
}

main().catch((e) => {
  console.error(e instanceof JavaMissingError ? e.message : e instanceof Error ? e.message : e);
  process.exit(1);
});
