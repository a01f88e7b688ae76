/**
 * The synthesized stack (cdk synth with real bundling) that the emulator and infra tests share:
 * built once per source state and reused by every file of a run (a lock directory keeps parallel
 * files from synthesizing twice). It is always synthesized with npm offline and an empty npm
 * cache, which is how test/infra/synth.test.ts proves synth is hermetic.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assemblyFor, isFresh, ROOT, synthesize, templateOf } from '../../infra/local/emulator/synth';

export interface Assembly {
  dir: string;
  template: string;
  /** How it was synthesized (written beside it). */
  synth: { offline: boolean; emptyCache: boolean; seconds: number; cacheFilesAfter: string[] };
}

const DIR = join(tmpdir(), `gw-test-cdk-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`);
const LOCK = `${DIR}.lock`;

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock older than a synth could ever take is left over from a killed run.
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > 15 * 60_000) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The stack synthesized from the sources; with `context`, as `cdk synth -c key=value` (demo=on), in a folder of its own. */
/**
 * The stack with every optional part the emulator's tests serve: the authorizer demo (-c demo=on)
 * and the managed data plane (-c dataPlane=on), in one synth they share.
 */
export const FULL_CONTEXT = { demo: 'on', dataPlane: 'on' } as const;

export function cloudAssembly(context: Record<string, string> = {}): Promise<Assembly> {
  const dir = assemblyFor(context, DIR);
  const record = join(dir, 'test-synth.json');
  return withLock(async () => {
    if (!isFresh(dir) || !existsSync(record)) {
      rmSync(dir, { recursive: true, force: true });
      const cache = mkdtempSync(join(tmpdir(), 'gw-empty-npm-cache-'));
      const started = Date.now();
      let output = '';
      await synthesize(dir, { offline: true, cache, context, output: (c) => (output += c) }).catch((e: Error) => {
        throw new Error(`${e.message}\n${output.slice(-3000)}`);
      });
      const cacheFilesAfter = listFiles(cache);
      rmSync(cache, { recursive: true, force: true });
      const facts = { offline: true, emptyCache: true, seconds: Math.round((Date.now() - started) / 1000), cacheFilesAfter };
      writeFileSync(record, JSON.stringify(facts, null, 2));
    }
    return { dir, template: templateOf(dir), synth: JSON.parse(readFileSync(record, 'utf8')) as Assembly['synth'] };
  });
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...listFiles(p, `${prefix}${e}/`));
    else out.push(`${prefix}${e}`);
  }
  return out;
}
