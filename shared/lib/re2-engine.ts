/**
 * re2js, loaded on first use. It is 150 KB of a function's bundle (esbuild puts it in a chunk of
 * its own), and only a key or policy with `allowed_urls` rules needs it: a check or a write of
 * access rights without rules never loads it, and no function loads it at its cold start.
 */
import type * as Re2 from 're2js';

let engine: typeof Re2 | undefined;

/** The engine, loading it the first time. */
export async function loadRe2(): Promise<typeof Re2> {
  engine ??= await import('re2js');
  return engine;
}

/** The engine once loadRe2() has loaded it; a caller that did not is a bug, said as such. */
export function re2(): typeof Re2 {
  if (!engine) throw new Error('re2js used before loadRe2()');
  return engine;
}
