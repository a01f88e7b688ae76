/**
 * The rules of the house (README "Layout"), as .dependency-cruiser.cjs states them, hold over the
 * whole code base, and each rule is shown to fail: a throwaway tree with one planted violation
 * per rule is cruised with the same configuration, and every rule must report its plant.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const { forbidden } = (await import(CONFIG)).default as { forbidden: Array<{ name: string }> };

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string, dirs: string[]): Violation[] {
  const run = spawnSync(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'json', ...dirs], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  expect(run.stdout, run.stderr).not.toBe('');
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** A tree with one violation of each rule; every file it imports exists, so all resolve. */
const PLANTED: Record<string, string> = {
  'shared/errors.ts': "import './domain/pure';",
  'shared/limits.ts': '',
  'shared/config.ts': '',
  'shared/schemas/thing.ts': "import '../domain/pure';",
  'shared/domain/pure.ts': '',
  'shared/domain/impure.ts': "import '../http/respond';\nimport '../store/things';",
  'shared/domain/circle-a.ts': "import './circle-b';",
  'shared/domain/circle-b.ts': "import './circle-a';",
  'shared/store/db/client.ts': "import '../things';",
  'shared/store/things.ts': "import '../services/things';",
  'shared/net/fetch.ts': "import '../store/things';",
  'shared/services/things.ts': "import '../http/respond';\nimport '@aws-sdk/lib-dynamodb';",
  'shared/services/launcher.ts': "import '../../infra/local/server';",
  'shared/http/respond.ts': "import '../store/things';",
  'shared/route-groups/things.ts': "import '../store/things';",
  'shared/route-groups/others.ts': '',
  'functions/things/get.ts': "import '../../shared/store/things';\nimport '../../shared/route-groups/others';\nimport '../../infra/local/server';",
  'infra/local/server.ts': '',
};

/** The plant each rule must report, as from -> to. */
const EXPECTED: Record<string, [string, string]> = {
  'no-circular': ['shared/domain/circle-a.ts', 'shared/domain/circle-b.ts'],
  'neutral-imports-nothing': ['shared/errors.ts', 'shared/domain/pure.ts'],
  'schemas-below-domain': ['shared/schemas/thing.ts', 'shared/domain/pure.ts'],
  'domain-is-pure': ['shared/domain/impure.ts', 'shared/http/respond.ts'],
  'store-below-services': ['shared/store/things.ts', 'shared/services/things.ts'],
  'store-db-knows-no-resource': ['shared/store/db/client.ts', 'shared/store/things.ts'],
  'net-is-an-adapter': ['shared/net/fetch.ts', 'shared/store/things.ts'],
  'services-below-http': ['shared/services/things.ts', 'shared/http/respond.ts'],
  'route-table-is-data': ['shared/route-groups/things.ts', 'shared/store/things.ts'],
  'http-uses-services': ['shared/http/respond.ts', 'shared/store/things.ts'],
  'handlers-use-http-and-services': ['functions/things/get.ts', 'shared/store/things.ts'],
  'handler-imports-its-own-group': ['functions/things/get.ts', 'shared/route-groups/others.ts'],
  'shared-never-imports-infra': ['shared/services/launcher.ts', 'infra/local/server.ts'],
};

// Inside the project, so the planted AWS SDK import resolves to its node_modules.
const fixture = join(ROOT, `.depcruise-fixture-${process.pid}`);
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

describe('dependency rules', () => {
  it('hold over the whole code base: no violation, no import circle', () => {
    expect(cruise(ROOT, ['shared', 'functions', 'infra', 'scripts', 'bench', 'test']).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 60_000);

  it('each rule fails on a planted violation', () => {
    for (const [file, source] of Object.entries(PLANTED)) {
      mkdirSync(dirname(join(fixture, file)), { recursive: true });
      writeFileSync(join(fixture, file), `${source}\nexport {};\n`);
    }
    writeFileSync(join(fixture, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
    const found = cruise(fixture, ['shared', 'functions', 'infra']);
    expect(Object.keys(EXPECTED).sort(), 'every rule of the configuration has a plant').toEqual(forbidden.map((r) => r.name).sort());
    for (const [rule, [from, to]] of Object.entries(EXPECTED)) {
      expect(found.some((v) => v.rule.name === rule && v.from === from && v.to === to), `${rule}: ${from} -> ${to}`).toBe(true);
    }
    // The AWS SDK is caught too, wherever node_modules lies.
    expect(found.some((v) => v.rule.name === 'services-below-http' && /node_modules\/@aws-sdk\//.test(v.to))).toBe(true);
  }, 60_000);
});
