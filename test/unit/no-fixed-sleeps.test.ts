/**
 * Tests wait on signals, never by the clock: a pause (a promise resolved by a timer, or a
 * `timers/promises` wait) is allowed only inside a loop, where it spaces the polls of a condition
 * that has a deadline. A pause on its own says "by now it must have happened" (a slow machine fails
 * it) or "nothing else will arrive" (a fast one waits for nothing); wait for the change feed's
 * caughtUp, a receiver's arrival, handlersDone, `expect.poll` or `vi.waitFor` instead
 * (docs/developing/tests.md).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** A timer that only resolves a promise (`setTimeout(r, 100)`), or the promise form of timers. */
const PAUSE = /setTimeout\(\s*(?:r|res|resolve|done|ok)\s*,|from 'node:timers\/promises'|from 'timers\/promises'/g;

/** Whether the text at `at` sits inside a `for`/`while` loop's block (a brace scan, comments and strings aside). */
function insideLoop(text: string, at: number): boolean {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '}') depth++;
    else if (c === '{') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const lineStart = text.lastIndexOf('\n', i) + 1;
      if (/^\s*(?:\}\s*)?(?:for|while)\s*\(|^\s*do\s*\{/.test(text.slice(lineStart, i + 1))) return true;
    }
  }
  return false;
}

/** `file:line` of every pause outside a loop. */
function fixedSleeps(path: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(PAUSE)) {
    if (m[0].includes('timers')) found.push(`${path}: imports the promise timers`);
    else if (!insideLoop(text, m.index)) found.push(`${path}:${text.slice(0, m.index).split('\n').length}`);
  }
  return found;
}

describe('no fixed sleep in a test', () => {
  it('finds a pause outside a loop, and lets one that spaces the polls of a loop pass', () => {
    const bad = "it('x', async () => {\n  await post();\n  await new Promise((r) => setTimeout(r, 500));\n  expect(seen).toEqual([]);\n});\n";
    expect(fixedSleeps('a.test.ts', bad)).toEqual(['a.test.ts:3']);
    const polling = "while (!done()) {\n  if (Date.now() > deadline) throw new Error('late');\n  await new Promise((r) => setTimeout(r, 50));\n}\n";
    expect(fixedSleeps('b.test.ts', polling)).toEqual([]);
    expect(fixedSleeps('c.test.ts', "import { setTimeout as wait } from 'node:timers/promises';\n")).toHaveLength(1);
    expect(fixedSleeps('d.ts', 'const answer = setTimeout(() => res.end(), 100);\n')).toEqual([]);
  });

  it('holds for every file of the tests and their support', () => {
    const self = relative(ROOT, __filename);
    const found = filesUnder(join(ROOT, 'test'))
      .map((path) => [relative(ROOT, path), path] as const)
      .filter(([rel]) => rel !== self)
      .flatMap(([rel, path]) => fixedSleeps(rel, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});
