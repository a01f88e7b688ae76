/** What `npm run emulate`, `invoke` and `event` share: options, the template to serve, the emulator's settings. */
import { resolve } from 'node:path';
import { assemblyFor, isFresh, synthesize, templateOf } from './synth';

export interface Args {
  positional: string[];
  flags: Map<string, string[]>;
}

/** `--name value` and `--name=value` (repeatable), `--flag` alone, and the rest in order. */
export function parseArgs(argv: readonly string[], booleans: readonly string[] = []): Args {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const value = eq > 0 ? a.slice(eq + 1) : booleans.includes(name) ? 'true' : argv[++i];
    if (value === undefined) throw new Error(`${a} needs a value`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { positional, flags };
}

export const flag = (args: Args, name: string) => args.flags.get(name)?.at(-1);

/** `--context key=value` (repeatable): cdk's `-c key=value` for the synth. */
function contextOf(args: Args): Record<string, string> {
  const context: Record<string, string> = {};
  for (const pair of args.flags.get('context') ?? []) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`--context ${pair}: expected key=value (as cdk's -c)`);
    context[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return context;
}

/**
 * The template to serve: `--template <file>` as given, else the stack template of the assembly in
 * `--assembly <dir>` (default cdk.out; with `--context key=value`, cdk.out.key-value),
 * synthesized first (with those settings) when it is missing, older than the sources, or
 * `--synth` asks.
 */
export async function templateFor(args: Args, log: (line: string) => void): Promise<string> {
  const template = flag(args, 'template');
  if (template) return resolve(template);
  const context = contextOf(args);
  const assembly = resolve(flag(args, 'assembly') ?? assemblyFor(context));
  if (flag(args, 'synth') === 'true' || !isFresh(assembly)) {
    const settings = Object.entries(context).map(([k, v]) => ` -c ${k}=${v}`);
    log(`synthesizing the stack into ${assembly} (cdk synth${settings.join('')} with bundling)...`);
    await synthesize(assembly, { context });
  }
  return templateOf(assembly);
}

/** The settings `npm start` reads, with the emulator's own DATA_DIR default. */
export function settings(env: NodeJS.ProcessEnv) {
  return {
    host: env.HOST || '127.0.0.1',
    port: Number(env.PORT || 8080),
    dataDir: resolve(env.DATA_DIR || '.data/emulate'),
    tableName: env.TABLE_NAME || 'gw-management',
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    concurrency: env.EMULATE_CONCURRENCY ? Number(env.EMULATE_CONCURRENCY) : undefined,
  };
}
