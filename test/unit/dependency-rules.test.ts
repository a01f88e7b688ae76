/**
 * The rules of the house (docs/developing/layout.md), as .dependency-cruiser.cjs states them, hold over the
 * whole code base, and no part of a rule is dead:
 * - every path pattern a rule names (its `from`, and each layer of its `to`) matches a module of
 *   the code base, so a pattern left behind by a move (`^shared/openapi[.]ts$` after the file became
 *   a folder) fails here instead of constraining nothing;
 * - a throwaway tree plants one violation per rule and forbidden layer (a sample module of the
 *   rule's `from` importing a sample of each layer in its `to`), and each one must be reported.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

type Paths = string | string[] | undefined;
interface Rule {
  name: string;
  from: { path?: Paths; pathNot?: Paths };
  to: { path?: Paths; pathNot?: Paths; circular?: boolean };
}
const { forbidden } = (await import(CONFIG)).default as { forbidden: Rule[] };

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}
interface Cruise {
  violations: Violation[];
  modules: string[];
}

function cruise(cwd: string, dirs: string[]): Cruise {
  const run = spawnSync(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'json', ...dirs], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  expect(run.stdout, run.stderr).not.toBe('');
  const out = JSON.parse(run.stdout) as { summary: { violations: Violation[] }; modules: Array<{ source: string }> };
  return { violations: out.summary.violations, modules: out.modules.map((m) => m.source) };
}

const list = (p: Paths): string[] => (p === undefined ? [] : Array.isArray(p) ? p : [p]);

/**
 * One sample module per layer, for the planted tree: the first one a pattern matches (and its
 * `pathNot` does not) stands for that pattern. A new layer needs a sample here.
 */
const SAMPLES = [
  'shared/errors.ts',
  'shared/schemas/thing.ts',
  'shared/domain/pure.ts',
  'shared/config.ts',
  'shared/observability/logger.ts',
  'shared/store/db/client.ts',
  'shared/store/things.ts',
  'shared/net/fetch.ts',
  'shared/services/things.ts',
  'shared/routes.ts',
  'shared/route-groups/things.ts',
  'shared/route-groups/others.ts',
  'shared/http/respond.ts',
  'shared/openapi/document.ts',
  'functions/things/get.ts',
  'infra/local/server.ts',
  'tools/gwctl/main.ts',
];
/** The AWS SDK, imported by its package name; it resolves into the project's node_modules. */
const AWS_SDK_IMPORT = '@aws-sdk/lib-dynamodb';
const AWS_SDK_SAMPLE = 'node_modules/@aws-sdk/lib-dynamodb/';

/** The sample that stands for `pattern` (minus `not`), or undefined when none does. */
function sampleOf(pattern: string, not: string[] = []): string | undefined {
  const candidates = [...SAMPLES, AWS_SDK_SAMPLE];
  return candidates.find((s) => new RegExp(pattern).test(s) && !not.some((n) => new RegExp(n).test(s)));
}

interface Plant {
  rule: string;
  from: string;
  to: string;
}

/** One planted violation per rule and per layer its `to` forbids; circles get a pair of their own. */
function plants(): { plants: Plant[]; missing: string[] } {
  const out: Plant[] = [];
  const missing: string[] = [];
  for (const rule of forbidden) {
    if (rule.to.circular) {
      out.push({ rule: rule.name, from: 'shared/domain/circle-a.ts', to: 'shared/domain/circle-b.ts' });
      continue;
    }
    const fromPattern = list(rule.from.path)[0]!;
    const from = sampleOf(fromPattern, list(rule.from.pathNot));
    if (!from) {
      missing.push(`${rule.name}: no sample for from ${fromPattern}`);
      continue;
    }
    const group = new RegExp(fromPattern).exec(from)?.[1] ?? '';
    for (const to of list(rule.to.path)) {
      const target = sampleOf(
        to,
        list(rule.to.pathNot).map((n) => n.replace('$1', group)),
      );
      if (target) out.push({ rule: rule.name, from, to: target });
      else missing.push(`${rule.name}: no sample for to ${to}`);
    }
  }
  return { plants: out, missing };
}

let code: Cruise;
beforeAll(() => {
  code = cruise(ROOT, ['shared', 'functions', 'infra', 'scripts', 'bench', 'tools', 'test']);
}, 60_000);

// Inside the project, so the planted AWS SDK import resolves to its node_modules.
const fixture = join(ROOT, `.depcruise-fixture-${process.pid}`);
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe('dependency rules', () => {
  it('hold over the whole code base: no violation, no import circle', () => {
    expect(code.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('name no pattern that matches nothing in the code base', () => {
    const dead: string[] = [];
    for (const rule of forbidden) {
      for (const [side, patterns] of [
        ['from', list(rule.from.path)],
        ['to', list(rule.to.path)],
        ['to.pathNot', list(rule.to.pathNot).filter((p) => !p.includes('$1'))],
      ] as const) {
        for (const p of patterns) if (!code.modules.some((m) => new RegExp(p).test(m))) dead.push(`${rule.name} ${side}: ${p}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it('each rule fails on a planted violation of each layer it forbids', () => {
    const { plants: planted, missing } = plants();
    expect(missing, 'a layer without a sample module (add one to SAMPLES)').toEqual([]);
    const imports = new Map<string, Set<string>>();
    const edge = (from: string, to: string) => imports.set(from, (imports.get(from) ?? new Set()).add(to));
    for (const p of planted) edge(p.from, p.to);
    // The way back that closes the planted circle.
    edge('shared/domain/circle-b.ts', 'shared/domain/circle-a.ts');
    for (const file of SAMPLES) if (!imports.has(file)) imports.set(file, new Set());
    for (const [file, targets] of imports) {
      const lines = [...targets].map((t) => {
        if (t === AWS_SDK_SAMPLE) return `import '${AWS_SDK_IMPORT}';`;
        const rel = relative(dirname(file), t).replace(/[.]ts$/, '');
        return `import '${rel.startsWith('.') ? rel : `./${rel}`}';`;
      });
      mkdirSync(dirname(join(fixture, file)), { recursive: true });
      writeFileSync(join(fixture, file), `${lines.join('\n')}\nexport {};\n`);
    }
    writeFileSync(join(fixture, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
    const found = cruise(fixture, ['shared', 'functions', 'infra', 'tools']).violations;
    const reported = (p: Plant) =>
      found.some((v) => v.rule.name === p.rule && v.from === p.from && (p.to === AWS_SDK_SAMPLE ? v.to.includes(AWS_SDK_SAMPLE) : v.to === p.to));
    expect(new Set(planted.map((p) => p.rule)), 'every rule has a plant').toEqual(new Set(forbidden.map((r) => r.name)));
    expect(planted.filter((p) => !reported(p)).map((p) => `${p.rule}: ${p.from} -> ${p.to}`)).toEqual([]);
    expect(planted.length).toBeGreaterThan(forbidden.length * 3);
  }, 60_000);
});
