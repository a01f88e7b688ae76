/**
 * `npm run test:emulator` (STAGE=emulator) is an IAM proof: an e2e file run on the emulated stage
 * fails when any function is refused an action by its policy. Shown by running one e2e file that
 * way on a copy of the synthesized template whose hooks list function lacks dynamodb:Query, and on
 * the real template, where the same file passes with zero denials.
 * (The whole suite on the real template: `npm run test:emulator`, docs/developing/tests.md.)
 */
import { roleStatements } from '../support/role-statements';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/emulator/synth';
import { readStackTemplate } from '../../infra/local/emulator/template';
import { cloudAssembly } from '../support/assembly';

type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, any> };

const FILE = 'test/e2e/hooks.test.ts';
const ROUTE = 'hooksList';
const ACTION = 'dynamodb:Query';

let dir: string;
let real: string;
let withoutQuery: string;

/** One e2e file through `vitest run` with STAGE=emulator on `template`: its exit code and output. */
function runOnEmulator(template: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    // CI unset: the outer run's JSON report is not overwritten by this one.
    const child = spawn('npx', ['vitest', 'run', FILE, '--project', 'suite'], {
      cwd: ROOT,
      env: { ...process.env, STAGE: 'emulator', EMULATOR_TEMPLATE: template, CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.on('close', (code) => done({ code, output }));
  });
}

beforeAll(async () => {
  real = (await cloudAssembly()).template;
  // The route functions live in nested stacks: the copy is the stage with them merged in, as the emulator reads it.
  const t = readStackTemplate(real) as unknown as { Resources: Record<string, Resource> };
  const fn = Object.values(t.Resources).find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.ROUTE_NAME === ROUTE)!;
  const role = fn.Properties.Role['Fn::GetAtt'][0];
  let removed = 0;
  for (const st of roleStatements(t.Resources, role)) {
    const actions = [st.Action].flat();
    if (!actions.includes(ACTION)) continue;
    st.Action = actions.filter((a: string) => a !== ACTION);
    removed++;
  }
  expect(removed, `${ACTION} granted to ${ROUTE} in the real template`).toBeGreaterThan(0);
  // The copy keeps using the real assembly's bundles.
  for (const r of Object.values(t.Resources)) {
    if (r.Metadata?.['aws:asset:path']) r.Metadata['aws:asset:path'] = resolve(dirname(real), r.Metadata['aws:asset:path']);
  }
  dir = mkdtempSync(join(tmpdir(), 'gw-template-'));
  withoutQuery = join(dir, 'without-query.template.json');
  writeFileSync(withoutQuery, JSON.stringify(t));
}, 900_000);
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('STAGE=emulator fails an e2e run on any IAM denial', () => {
  it(`fails ${FILE} when ${ROUTE} lacks ${ACTION}, naming the denial`, async () => {
    const { code, output } = await runOnEmulator(withoutQuery);
    expect(code, output.slice(-3000)).not.toBe(0);
    expect(output).toContain('IAM denials through the emulator');
    expect(output).toMatch(new RegExp(`DENIED ${ROUTE} ${ACTION} on arn:aws:dynamodb:\\S+/index/GSI1`));
  }, 600_000);

  it(`passes ${FILE} on the real template with zero denials`, async () => {
    const { code, output } = await runOnEmulator(real);
    expect(code, output.slice(-3000)).toBe(0);
    expect(output).toMatch(/emulator stage: \d+ invocations, \d+ cold, 0 IAM denials/);
  }, 600_000);
});
