/**
 * npm run event -- <METHOD> <path> [--body file | -] [--header name:value ...]: prints the API
 * Gateway HTTP API (payload 2.0) event that request would bring to its function, matched against
 * the synthesized template's routes (routeKey, path parameters), like `sam local generate-event`.
 * A body without a content-type header is sent as application/json.
 */
import { readFileSync } from 'node:fs';
import { routeMatcher } from '../../shared/http/route-match';
import { apiGatewayEvent } from './event';
import { flag, parseArgs, templateFor } from './emulator/cli';
import { readCloudStage } from './emulator/template';

async function main() {
  const args = parseArgs(process.argv.slice(2), ['synth']);
  const [method, path] = args.positional;
  if (!method || !path?.startsWith('/')) throw new Error('usage: npm run event -- <METHOD> </path?query> [--body file | -] [--header name:value ...]');
  const headers: Record<string, string> = {};
  for (const h of args.flags.get('header') ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new Error(`--header ${h}: expected name:value`);
    headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
  }
  const bodySource = flag(args, 'body');
  const body = bodySource === undefined ? undefined : readFileSync(bodySource === '-' ? 0 : bodySource, 'utf8');
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  headers.host ??= 'localhost';
  const stage = readCloudStage(await templateFor(args, (line) => console.error(line)), { region: 'us-east-1', account: '000000000000', tableName: 'local' });
  const url = new URL(path, 'http://localhost');
  const hit = routeMatcher(stage.routes).match(method.toUpperCase(), url.pathname);
  const event = apiGatewayEvent(
    { method, url, headers, body, sourceIp: '127.0.0.1', protocol: 'HTTP/1.1' },
    { routeKey: hit?.route.routeKey ?? '$default', pathParameters: hit?.params ?? {} },
  );
  console.log(JSON.stringify(event, null, 2));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
