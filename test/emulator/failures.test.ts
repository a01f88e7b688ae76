/**
 * What only the deployed form can get wrong, shown on copies of the synthesized template served by
 * `npm run emulate`:
 * - a function whose policy lacks an action its code uses fails with AccessDeniedException, as in
 *   AWS, while every other function works;
 * - a bundle that cannot load reports its function's INIT error by name, and its route answers
 *   API Gateway's 502 at once;
 * - a function running past the template's timeout is stopped, and its route answers 502.
 */
import { roleStatements } from '../support/role-statements';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStackTemplate } from '../../infra/local/emulator/template';
import { cloudAssembly } from '../support/assembly';
import { linesOf, startEmulatedStage, type EmulatedStage } from '../support/stage';

type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, any> };
type Template = { Resources: Record<string, Resource> };

const DENIED_ROUTE = 'hooksList';
const DENIED_ACTION = 'dynamodb:Query';
const BROKEN_ROUTE = 'hooksGet';
const SLOW_ROUTE = 'hooksDelete';

const dirs: string[] = [];
let s: EmulatedStage;
let key: string;

function functionOf(t: Template, route: string): [string, Resource] {
  const hit = Object.entries(t.Resources).find(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.ROUTE_NAME === route);
  if (!hit) throw new Error(`no function for ${route}`);
  return hit;
}

/** A copy of one function's bundle folder, changed by `edit`; the template copy points at it. */
function replaceBundle(t: Template, templateDir: string, route: string, edit: (dir: string) => void): void {
  const [, fn] = functionOf(t, route);
  const dir = mkdtempSync(join(tmpdir(), `gw-bundle-${route}-`));
  dirs.push(dir);
  cpSync(resolve(templateDir, fn.Metadata!['aws:asset:path']), dir, { recursive: true });
  edit(dir);
  fn.Metadata!['aws:asset:path'] = dir;
}

beforeAll(async () => {
  const { template } = await cloudAssembly();
  // Nested stacks merged in: the copy is one template, its functions wherever the stage put them.
  const t = readStackTemplate(template) as unknown as Template;

  // 1. One action out of one function's policy.
  const [, denied] = functionOf(t, DENIED_ROUTE);
  const role = denied.Properties.Role['Fn::GetAtt'][0];
  let removed = 0;
  for (const st of roleStatements(t.Resources, role)) {
    const actions = [st.Action].flat();
    if (actions.includes(DENIED_ACTION)) {
      st.Action = actions.filter((a: string) => a !== DENIED_ACTION);
      removed++;
    }
  }
  expect(removed, `${DENIED_ACTION} granted to ${DENIED_ROUTE} in the real template`).toBeGreaterThan(0);

  // 2. A bundle that imports a package it does not ship.
  replaceBundle(t, dirname(template), BROKEN_ROUTE, (dir) => {
    const file = join(dir, 'index.mjs');
    writeFileSync(file, `import 'gw-package-not-shipped';\n${readFileSync(file, 'utf8')}`);
  });

  // 3. A handler that never answers, under a 2-second timeout.
  replaceBundle(t, dirname(template), SLOW_ROUTE, (dir) => writeFileSync(join(dir, 'index.mjs'), 'export const handler = () => new Promise(() => {});\n'));
  functionOf(t, SLOW_ROUTE)[1].Properties.Timeout = 2;

  const copy = mkdtempSync(join(tmpdir(), 'gw-template-'));
  dirs.push(copy);
  const file = join(copy, 'changed.template.json');
  // Unchanged functions keep their bundles in the original assembly.
  for (const r of Object.values(t.Resources)) {
    if (r.Metadata?.['aws:asset:path']) r.Metadata['aws:asset:path'] = resolve(dirname(template), r.Metadata['aws:asset:path']);
  }
  writeFileSync(file, JSON.stringify(t));
  s = await startEmulatedStage(file);
  key = (await s.tenant()).key;
}, 900_000);
afterAll(async () => {
  await s?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a policy without an action the code uses', () => {
  it('fails that function with AccessDeniedException, as AWS would', async () => {
    const r = await s.dash(key, 'GET', '/api/hooks');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ Status: 'Error', Meta: null });
    const denied = linesOf(s, 'DENIED');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatch(
      new RegExp(`^DENIED ${DENIED_ROUTE} ${DENIED_ACTION} on arn:aws:dynamodb:[^:]+:\\d+:table/${s.table}/index/GSI1 \\(no allow\\)$`),
    );
    // The function itself received AWS's error.
    expect(s.log.some((l) => l.startsWith(`${DENIED_ROUTE}\t`) && l.includes('AccessDeniedException'))).toBe(true);
  });

  it('leaves every other function its own permissions', async () => {
    expect((await s.dash(key, 'GET', '/api/users')).status).toBe(200);
    expect((await s.dash(key, 'POST', '/api/hooks', { name: 'h', method: 'POST', target_path: 'https://h.example/x' })).status).toBe(200);
    expect(linesOf(s, 'DENIED')).toHaveLength(1);
  });
});

describe('a bundle that cannot load', () => {
  it("reports the function's INIT error with its name, and the route answers 502 without hanging", async () => {
    for (let i = 0; i < 2; i++) {
      const r = await s.dash(key, 'GET', '/api/hooks/abc123');
      expect(r.status).toBe(502);
      expect(r.body).toEqual({ message: 'Internal Server Error' });
    }
    const init = linesOf(s, 'INIT_REPORT');
    expect(init.length).toBe(2);
    for (const l of init)
      expect(l).toMatch(new RegExp(`^INIT_REPORT ${BROKEN_ROUTE} Init Duration: [\\d.]+ ms Phase: init Status: error Error Type: Runtime.ImportModuleError$`));
    const error = linesOf(s, 'ERROR').find((l) => l.startsWith(`ERROR ${BROKEN_ROUTE} `));
    expect(error).toContain('gw-package-not-shipped');
    expect((await s.call('GET', '/hello')).status).toBe(200);
  });
});

describe("the template's timeout", () => {
  it('stops a function that runs past it; the route answers 502', async () => {
    const r = await s.dash(key, 'DELETE', '/api/hooks/abc123');
    expect(r.status).toBe(502);
    expect(s.log.some((l) => new RegExp(`^${SLOW_ROUTE} RequestId: \\S+ Task timed out after 2.00 seconds$`).test(l))).toBe(true);
    expect(linesOf(s, 'REPORT').some((l) => l.startsWith(`REPORT ${SLOW_ROUTE} `) && l.endsWith('Status: timeout'))).toBe(true);
  });
});
