/**
 * The entities each route declares (shared/route-groups/*.ts, `tableEntities`) are exactly the
 * ones its code touches: every partition key the route's tests touched through the local stage
 * (test/support/record-table-actions.ts) matches one of its declared entities' partition
 * patterns, and every declared entity's pattern was touched. The cloud function's item grant
 * holds only those patterns (IAM dynamodb:LeadingKeys; test/infra/leading-keys.test.ts), so a
 * key the tests never saw would be refused in the cloud: this check keeps the grants complete.
 * A partition key is read as its narrowest pattern (ORG#o#HOOK#h is a hook's, not the
 * organisation's ORG#*), so a route declares the entity it touches, not a wider one that
 * happens to cover it. Entities that share a pattern (org, org_session, counter and live_quota
 * under ORG#*) are one grant, and told apart here by their pattern only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { leadingKeysOf } from '../../infra/constructs/leading-keys';
import { evaluate } from '../../infra/local/emulator/iam';
import { definedEntities } from '../../shared/store/db/entity';
import { routeList } from '../../shared/routes';

interface Report {
  /** Route name -> partition keys of the table it touched. */
  partitions?: Record<string, string[]>;
}

const dir = inject('tableActionsDir');
const touched = new Map<string, Set<string>>();
for (const f of readdirSync(dir)) {
  const report = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Report;
  for (const [route, keys] of Object.entries(report.partitions ?? {})) {
    const set = touched.get(route) ?? new Set<string>();
    keys.forEach((k) => set.add(k));
    touched.set(route, set);
  }
}

/** IAM's StringLike as the emulator evaluates it (`*` any run, `#` included). */
const like = (pattern: string, key: string) =>
  evaluate([{ effect: 'Allow', actions: ['*'], resources: ['*'], leadingKeys: [pattern] }], { action: 'x', resource: 'x', leadingKeys: [key] }) === 'allowed';
const literal = (pattern: string) => pattern.replace(/[*?]/g, '').length;
const patterns = [...new Set(definedEntities().map((e) => e.partition))];

/** The narrowest registry pattern a partition key matches (the one with most fixed characters), or the key itself when none does. */
function patternOf(key: string): string {
  const matching = patterns.filter((p) => like(p, key)).sort((a, b) => literal(b) - literal(a));
  return matching[0] ?? `no entity: ${key}`;
}

describe('table entities: declared = touched by the route tests', () => {
  it('every built route with table actions declares its entities, by names the registry knows', () => {
    expect(routeList.filter((r) => r.tableActions?.length && !r.tableEntities).map((r) => r.name)).toEqual([]);
    for (const r of routeList) expect(() => leadingKeysOf(r.tableEntities ?? [])).not.toThrow();
  });

  it('no route may touch an audit entry: only the change feed writes them (contract §12)', () => {
    expect(routeList.filter((r) => r.tableEntities?.includes('audit_entry')).map((r) => r.name)).toEqual([]);
  });

  for (const r of routeList) {
    it(`${r.method} ${r.path} (${r.name})`, () => {
      const declared = leadingKeysOf(r.tableEntities ?? []);
      const used = [...new Set([...(touched.get(r.name) ?? [])].map(patternOf))].sort();
      expect(
        { touchedButNotDeclared: used.filter((p) => !declared.includes(p)), declaredButNeverTouched: declared.filter((p) => !used.includes(p)) },
        `${r.name} touched ${JSON.stringify(used)}`,
      ).toEqual({ touchedButNotDeclared: [], declaredButNeverTouched: [] });
    });
  }
});
