/**
 * Generated from the route table: every built route answers 401 in its group's envelope to no
 * credential, a malformed or wrong one, each other group's valid credential and an inactive
 * user's key. A new route is swept with no new test code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRoutes } from '../../shared/routes';
import { ADMIN_SECRET, GW_SECRET } from '../support/table';
import { startStage, type Stage } from '../support/stage';

let s: Stage;
let dashKey: string;
let inactiveKey: string;
beforeAll(async () => {
  s = await startStage();
  dashKey = (await s.tenant('sweep-org')).key;
  const inactive = await s.admin('POST', '/admin/users', { org_id: 'sweep-org', email_address: 'off@sweep.example', active: false });
  inactiveKey = inactive.body.Meta.access_key;
});
afterAll(() => s.close());

const concretePath = (path: string) => path.replace(/\{[^}]+\}/g, 'abc123');

function credentialCases(group: string): Array<[string, Record<string, string>]> {
  const valid: Record<string, Record<string, string>> = {
    dashboard: { authorization: `Bearer ${dashKey}` },
    gateway: { 'x-gw-authorization': GW_SECRET },
    admin: { 'admin-auth': ADMIN_SECRET },
  };
  const own = { dashboard: 'authorization', gateway: 'x-gw-authorization', admin: 'admin-auth' }[group]!;
  const cases: Array<[string, Record<string, string>]> = [
    ['no credential', {}],
    ['malformed header', { [own]: group === 'dashboard' ? 'Bearer ###' : '' }],
    ['wrong secret', { [own]: group === 'dashboard' ? 'Bearer 0123456789abcdef0123456789abcdef' : 'wrong-secret' }],
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

const protectedRoutes = builtRoutes.filter((r) => r.group !== 'public');

describe('credential sweep over the route table', () => {
  it('covers every built route', () => {
    expect(protectedRoutes.length).toBeGreaterThan(0);
  });

  for (const r of protectedRoutes) {
    it(`${r.method} ${r.path} (${r.group})`, async () => {
      const cases = credentialCases(r.group);
      for (const [label, headers] of cases) {
        const res = await s.call(r.method, concretePath(r.path), {
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
