/**
 * The console's size budget (docs/reference/limits.md): the JavaScript a first load fetches (the entry
 * index.html names and every chunk it imports statically) is at most 150 KB gzipped. The usage
 * page and its chart library are loaded on demand, so they stay out of it. The developer portal's
 * page (portal/index.html) has a budget of its own, 30 KB: a public page a developer opens first,
 * whose reference and usage pages (with Chart.js) load on demand. Read from the build's manifest
 * (console/vite.config.ts), which names each chunk's static and dynamic imports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR, ensureConsoleBuilt } from '../../console/host/build';

const INITIAL_JS_BUDGET_BYTES = 150 * 1024;
const PORTAL_INITIAL_JS_BUDGET_BYTES = 30 * 1024;

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, Chunk>;

/** The manifest keys a first load of a page fetches: its entry and, transitively, its static imports. */
function initialChunks(manifest: Manifest, entry = 'index.html'): string[] {
  if (!manifest[entry]?.isEntry) throw new Error(`the manifest names no entry ${entry}`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) visit(i);
  };
  visit(entry);
  return [...seen];
}

const gzipped = (file: string) => gzipSync(readFileSync(join(DIST_DIR, file)), { level: 9 }).length;

let manifest: Manifest;
beforeAll(() => {
  ensureConsoleBuilt();
  manifest = JSON.parse(readFileSync(join(DIST_DIR, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}, 600_000);

describe('the console size budget', () => {
  it('follows static imports and leaves dynamic ones out', () => {
    const m: Manifest = {
      'index.html': { file: 'a.js', isEntry: true, imports: ['_b.js'], dynamicImports: ['lazy.tsx'] },
      '_b.js': { file: 'b.js', imports: ['_c.js', 'index.html'] },
      '_c.js': { file: 'c.js' },
      'lazy.tsx': { file: 'lazy.js', imports: ['_d.js'] },
      '_d.js': { file: 'd.js' },
    };
    expect(initialChunks(m).sort()).toEqual(['_b.js', '_c.js', 'index.html']);
  });

  const initialBytes = (entry: string) => {
    const files = initialChunks(manifest, entry)
      .map((k) => manifest[k]!.file)
      .filter((f) => f.endsWith('.js'));
    return { files, bytes: files.reduce((sum, f) => sum + gzipped(f), 0) };
  };

  it('keeps the initial JavaScript at or under 150 KB gzipped', () => {
    const { files, bytes } = initialBytes('index.html');
    console.log(`console initial JavaScript: ${files.length} file(s), ${(bytes / 1024).toFixed(1)} KB gzipped (budget 150 KB)`);
    expect(files.length).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  it("keeps the developer portal's initial JavaScript at or under 30 KB gzipped, its reference and usage pages (and Chart.js) outside it", () => {
    const { files, bytes } = initialBytes('portal/index.html');
    console.log(`portal initial JavaScript: ${files.length} file(s), ${(bytes / 1024).toFixed(1)} KB gzipped (budget 30 KB)`);
    expect(files.length).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(PORTAL_INITIAL_JS_BUDGET_BYTES);
    const initial = new Set(initialChunks(manifest, 'portal/index.html'));
    for (const src of ['src/portal/reference.tsx', 'src/portal/usage.tsx']) {
      const lazy = Object.keys(manifest).find((k) => manifest[k]!.src === src);
      expect(lazy, src).toBeDefined();
      expect(initial.has(lazy!)).toBe(false);
      expect(manifest['portal/index.html']!.dynamicImports).toContain(lazy);
    }
    const initialText = [...initial].map((k) => readFileSync(join(DIST_DIR, manifest[k]!.file), 'utf8')).join('\n');
    expect(initialText.includes('Canvas is already in use')).toBe(false);
  });

  it('loads the usage page and its chart library on demand, outside the initial load', () => {
    const initial = new Set(initialChunks(manifest));
    const usage = Object.keys(manifest).find((k) => manifest[k]!.src === 'src/pages/usage/usage.tsx');
    expect(usage).toBeDefined();
    expect(initial.has(usage!)).toBe(false);
    const entry = [...initial].find((k) => manifest[k]!.isEntry)!;
    expect(manifest[entry]!.dynamicImports).toContain(usage);
    // Chart.js is bundled with the usage page (or a chunk only it imports), never in the initial files.
    const initialText = [...initial].map((k) => readFileSync(join(DIST_DIR, manifest[k]!.file), 'utf8')).join('\n');
    // A message of Chart.js's own that minification keeps.
    const CHART_JS = 'Canvas is already in use';
    expect(initialText.includes(CHART_JS)).toBe(false);
    const usageFiles = [usage!, ...(manifest[usage!]!.imports ?? [])].map((k) => readFileSync(join(DIST_DIR, manifest[k]!.file), 'utf8')).join('\n');
    expect(usageFiles.includes(CHART_JS)).toBe(true);
  });
});
