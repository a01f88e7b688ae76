/**
 * The credential sweep, generated from the route table, for any stage: every built route answers
 * 401 in its group's envelope to no credential, a malformed or wrong one, each other group's valid
 * credential and an inactive user's key. A new route is swept with no new test code. It runs
 * against the source stage (test/e2e/auth-sweep.test.ts) and the emulated cloud stage
 * (test/emulator/stage.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import { ADMIN_SECRET, GW_SECRET } from './table';
import type { Stage } from './stage';
import { developerSession } from './developer-session';

export const concretePath = (path: string) => path.replace(/\{[^}]+\}/g, 'abc123');
const protectedRoutes = routeList.filter((r) => r.group !== 'public');

/**
 * `served`, when given, names the route keys the stage really serves (the emulator's come from the
 * template): a table route it lacks fails its sweep instead of being answered by a fallback.
 */
export function describeCredentialSweep(title: string, stage: () => Stage, served?: () => ReadonlySet<string>): void {
  let dashKey: string;
  let inactiveKey: string;
  /** A developer session of the sweep organisation's portal: refused by every route of another group (and by another portal's path). */
  let devKey: string;

  function credentialCases(group: string): Array<[string, Record<string, string>]> {
    const valid: Record<string, Record<string, string>> = {
      dashboard: { authorization: `Bearer ${dashKey}` },
      gateway: { 'x-gw-authorization': GW_SECRET },
      admin: { 'admin-auth': ADMIN_SECRET },
      developer: { authorization: `Bearer ${devKey}` },
    };
    const own = { dashboard: 'authorization', gateway: 'x-gw-authorization', admin: 'admin-auth', developer: 'authorization' }[group]!;
    const bearer = group === 'dashboard' || group === 'developer';
    const cases: Array<[string, Record<string, string>]> = [
      ['no credential', {}],
      ['malformed header', { [own]: bearer ? 'Bearer ###' : '' }],
      ['wrong secret', { [own]: bearer ? 'Bearer 0123456789abcdef0123456789abcdef' : 'wrong-secret' }],
    ];
    for (const [other, headers] of Object.entries(valid)) {
      if (other !== group) cases.push([`${other} credential`, headers]);
    }
    // Another group's secret in this group's header is still wrong.
    if (group === 'gateway') cases.push(['admin secret in X-Gw-Authorization', { 'x-gw-authorization': ADMIN_SECRET }]);
    if (group === 'admin') cases.push(['gateway secret in Admin-Auth', { 'admin-auth': GW_SECRET }]);
    if (group === 'dashboard') cases.push(["inactive user's key", { authorization: `Bearer ${inactiveKey}` }]);
    return cases;
  }

  describe(title, () => {
    beforeAll(async () => {
      const s = stage();
      dashKey = (await s.tenant('sweep-org')).key;
      const inactive = await s.admin('POST', '/admin/users', { org_id: 'sweep-org', email_address: 'off@sweep.example', active: false });
      inactiveKey = inactive.body.Meta.access_key;
      devKey = await developerSession(s, 'sweep-org', dashKey);
    });

    it('covers every built route', () => {
      expect(protectedRoutes.length).toBeGreaterThan(0);
    });

    for (const r of protectedRoutes) {
      it(`${r.method} ${r.path} (${r.group})`, async () => {
        if (served) expect(served().has(`${r.method} ${r.path}`), 'served by the stage').toBe(true);
        for (const [label, headers] of credentialCases(r.group)) {
          const res = await stage().call(r.method, concretePath(r.path), {
            headers,
            body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
          });
          expect(res.status, `${label}`).toBe(401);
          if (r.group === 'gateway') expect(res.body, label).toMatchObject({ status: 'error', message: expect.any(String) });
          else expect(res.body, label).toMatchObject({ Status: 'Error', Message: expect.any(String), Meta: null });
          expect(res.headers.get('x-request-id'), label).toBeTruthy();
        }
      });
    }
  });
}
