import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, any> };

/**
 * A copy of a synthesized template with yardstick functions beside a function of the stack (the one
 * whose ROUTE_NAME is `like`; without it, the template's first route function): each
 * on that function's role, memory and environment (its ROUTE_NAME replaced), its code the asset
 * folder given. The copy is written into the template's own assembly, so the nested stacks'
 * templates and the assets it names stay where their relative paths point; `dir` is a scratch
 * folder for the emulator's data.
 */
export function withYardsticks(
  template: string,
  like: string | undefined,
  yardsticks: Record<string, { name: string; asset: string }>,
  scratch: string,
): { file: string; dir: string } {
  const t = JSON.parse(readFileSync(template, 'utf8')) as { Resources: Record<string, Resource> };
  const routeName = (r: Resource) => (r.Type === 'AWS::Lambda::Function' ? r.Properties.Environment?.Variables?.ROUTE_NAME : undefined);
  const model = Object.values(t.Resources).find((r) => (like === undefined ? routeName(r) !== undefined : routeName(r) === like));
  if (!model) throw new Error(`no function ${like ?? 'of a route'} in ${template}`);
  for (const [id, { name, asset }] of Object.entries(yardsticks)) {
    t.Resources[id] = {
      Type: 'AWS::Lambda::Function',
      Properties: {
        ...model.Properties,
        Handler: 'index.handler',
        Environment: { Variables: { ...model.Properties.Environment.Variables, ROUTE_NAME: name } },
      },
      Metadata: { 'aws:asset:path': asset },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `gw-bench-${scratch}-`));
  const file = join(dirname(template), `bench-${basename(dir)}.template.json`);
  writeFileSync(file, JSON.stringify(t));
  return { file, dir };
}
