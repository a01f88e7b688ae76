/**
 * The cloud assembly the emulator serves: `cdk synth` with real bundling, reused while it is newer
 * than every file that shapes it.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const DEFAULT_ASSEMBLY = join(ROOT, 'cdk.out');

/**
 * The assembly of a synth with context settings (`-c demo=on`): beside cdk.out, named after them
 * (cdk.out.demo-on), so each keeps its own freshness.
 */
export function assemblyFor(context: Record<string, string>, base = DEFAULT_ASSEMBLY): string {
  const entries = Object.entries(context).sort(([a], [b]) => a.localeCompare(b));
  return entries.length ? `${base}.${entries.map(([k, v]) => `${k}-${v}`.replace(/[^A-Za-z0-9_-]/g, '_')).join('.')}` : base;
}

/** What the template and the bundles are made from (infra/local only serves them). */
const SOURCES = ['infra', 'functions', 'shared', 'console', 'package-lock.json', 'package.json', 'cdk.json', 'tsconfig.json'];
/** What no template or bundle is made from: the local stages, the console's tests and its build output. */
const SKIP = new Set([join(ROOT, 'infra', 'local'), join(ROOT, 'console', 'dist'), join(ROOT, 'console', 'test'), join(ROOT, 'console', '.dist-building')]);

function newestMtime(path: string): number {
  if (!existsSync(path) || SKIP.has(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(path)) if (e !== 'node_modules') newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}

/** The assembly exists and no source changed after it was written. */
export function isFresh(assembly: string): boolean {
  const manifest = join(assembly, 'manifest.json');
  if (!existsSync(manifest)) return false;
  return statSync(manifest).mtimeMs >= Math.max(...SOURCES.map((s) => newestMtime(join(ROOT, s))));
}

export interface SynthOptions {
  /** npm may not reach the registry (npm_config_offline); with `cache`, an npm cache folder to use. */
  offline?: boolean;
  cache?: string;
  /** Where cdk's output goes (default: this process's stderr). */
  output?: (chunk: string) => void;
  /** Context settings, as `cdk synth -c key=value` (docs/operating/deploy.md "Stages and settings"). */
  context?: Record<string, string>;
}

/** `cdk synth` with bundling into `assembly`; rejects with the end of cdk's output. */
export function synthesize(assembly: string, opts: SynthOptions = {}): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' };
  if (opts.offline) env.npm_config_offline = 'true';
  if (opts.cache) env.npm_config_cache = opts.cache;
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'cdk'),
    ['synth', '--quiet', '--no-notices', '--output', assembly, ...Object.entries(opts.context ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let tail = '';
  const keep = (d: Buffer) => {
    const s = String(d);
    tail = (tail + s).slice(-4000);
    (opts.output ?? ((c) => process.stderr.write(c)))(s);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cdk synth failed (${code}):\n${tail}`))));
  });
}

/** The stack template of an assembly (STACK_NAME picks one when there are several). */
export function templateOf(assembly: string, stackName = process.env.STACK_NAME): string {
  const manifest = JSON.parse(readFileSync(join(assembly, 'manifest.json'), 'utf8')) as {
    artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, a]) => a.type === 'aws:cloudformation:stack');
  const chosen = stacks.find(([name]) => name === stackName) ?? stacks[0];
  if (!chosen?.[1].properties?.templateFile) throw new Error(`no stack template in ${assembly}`);
  return join(assembly, chosen[1].properties.templateFile);
}
