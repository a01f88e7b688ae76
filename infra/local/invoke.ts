/**
 * npm run invoke -- <RouteName> [--event file.json | -]: one function of the synthesized stack runs
 * its bundle on Lambda's Node with one event, like `sam local invoke`, with the emulator's storage,
 * secrets and IAM checks. The result is printed on stdout; REPORT and the function's logs on stderr.
 * Without --event the event is `{}`.
 */
import { readFileSync } from 'node:fs';
import { flag, parseArgs, settings, templateFor } from './emulator/cli';
import { startEmulator } from './emulator/stage';
import { findFunction } from './emulator/template';

async function main() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const args = parseArgs(process.argv.slice(2), ['synth']);
  const name = args.positional[0];
  if (!name) throw new Error('usage: npm run invoke -- <RouteName | logical id | "METHOD /path"> [--event file.json | -]');
  const source = flag(args, 'event');
  const event: unknown = source === undefined ? {} : JSON.parse(readFileSync(source === '-' ? 0 : source, 'utf8'));
  const log = (line: string) => console.error(line);
  const templateFile = await templateFor(args, log);
  const emulator = await startEmulator({ templateFile, ...settings(process.env), env: process.env, log });
  try {
    const fn = findFunction(emulator.stage, name);
    if (!fn) {
      const names = [...emulator.stage.functions.values()].map((f) => f.name).sort();
      throw new Error(`no function ${name} in ${templateFile}; one of: ${names.join(', ')}`);
    }
    const outcome = await emulator.invoke(fn.logicalId, event);
    console.log(JSON.stringify(outcome.ok ? outcome.result : { errorType: outcome.error.errorType, errorMessage: outcome.error.errorMessage }));
    process.exitCode = outcome.ok ? 0 : 1;
  } finally {
    await emulator.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
