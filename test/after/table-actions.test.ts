/**
 * The table actions each route declares (shared/route-groups/*.ts, `tableActions`) are exactly
 * the ones its code sends: the union of what every e2e and hardening file saw the route send
 * through the local stage (test/support/record-table-actions.ts). Declared but never sent, or
 * sent but not declared, fails; so does a built route without a declaration. The cloud stack
 * grants exactly the declared actions (test/infra/table-actions.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { WATCHED_TABLE_OPERATIONS } from '../../infra/constructs/monitoring';
import { routeList } from '../../shared/routes';

interface Report {
  file: string;
  /** Route name -> IAM actions it sent. */
  routes: Record<string, string[]>;
  /** Route name -> DynamoDB operations it sent (a transaction is one operation here). */
  operations: Record<string, string[]>;
}

const dir = inject('tableActionsDir');
const reports: Report[] = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Report);
const used = new Map<string, Set<string>>();
for (const r of reports) {
  for (const [route, actions] of Object.entries(r.routes)) {
    const set = used.get(route) ?? new Set<string>();
    actions.forEach((a) => set.add(a));
    used.set(route, set);
  }
}

const operations = new Set(reports.flatMap((r) => Object.values(r.operations).flat()));

const testFiles = (folder: string) =>
  readdirSync(join(process.cwd(), 'test', folder))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/${folder}/${f}`);

describe('table actions: declared = sent by the route tests', () => {
  it('saw the whole e2e and hardening suites (run `npx vitest run` for this check)', () => {
    const reported = new Set(reports.map((r) => r.file));
    const missing = [...testFiles('e2e'), ...testFiles('hardening')].filter((f) => !reported.has(f));
    expect(missing, 'these files did not run in this vitest run').toEqual([]);
  });

  it('every built route declares its table actions', () => {
    expect(
      routeList.filter((r) => !r.tableActions).map((r) => r.name),
      'add tableActions to these routes',
    ).toEqual([]);
  });

  it('the table alarms watch exactly the operations the routes send', () => {
    expect([...WATCHED_TABLE_OPERATIONS].sort()).toEqual([...operations].sort());
  });

  for (const r of routeList) {
    it(`${r.method} ${r.path} (${r.name})`, () => {
      const declared = [...(r.tableActions ?? [])].sort();
      const sent = [...(used.get(r.name) ?? [])].sort();
      expect(
        { sentButNotDeclared: sent.filter((a) => !declared.includes(a as never)), declaredButNeverSent: declared.filter((a) => !sent.includes(a)) },
        `${r.name} sent ${JSON.stringify(sent)}`,
      ).toEqual({ sentButNotDeclared: [], declaredButNeverSent: [] });
    });
  }
});
