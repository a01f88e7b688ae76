/**
 * npm run emulate: the synthesized stack on this machine, as the cloud runs it
 * (docs/operating/emulator.md). Routes, functions, environments, timeouts and IAM policies come
 * from the template, not from the route table; each function runs its bundle on Lambda's Node.
 */
import { createGateway } from './emulator/gateway';
import { flag, parseArgs, settings, templateFor } from './emulator/cli';
import { startEmulator } from './emulator/stage';
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

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    server.close();
    server.closeAllConnections();
    await emulator.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

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
