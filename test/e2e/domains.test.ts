/**
 * Domains granted to organisations (contract §13): only an installation admin grants, lists and
 * revokes them; a domain belongs to at most one organisation. What a grant allows an API to
 * claim: test/e2e/listen-paths.test.ts; how requests are routed by it: routing-trust.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [a, b] = useTenants(s, 2);

const at = (orgId: string, domain = '') => `/admin/organisations/${orgId}/domains${domain ? `/${domain}` : ''}`;

describe('/admin/organisations/{orgID}/domains', () => {
  it('grants, lists by name and revokes; granting again changes nothing', async () => {
    const [d1, d2] = [`${uid('zeta')}.example`, `${uid('alpha')}.example`];
    expect((await s.admin('PUT', at(a.orgId, d1))).body).toEqual({ Status: 'OK', Message: 'Domain granted', Meta: null });
    expect((await s.admin('PUT', at(a.orgId, d2.toUpperCase()))).body.Message).toBe('Domain granted');
    expect((await s.admin('PUT', at(a.orgId, d1))).body.Message).toBe('Domain already granted');
    const list = await s.admin('GET', at(a.orgId));
    expect(list.status).toBe(200);
    expect(list.body.Meta.domains.map((d: { domain: string }) => d.domain)).toEqual([d2, d1]);
    expect(list.body.Meta.domains[0].granted_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await s.admin('DELETE', at(a.orgId, d2))).body).toEqual({ Status: 'OK', Message: 'Domain revoked', Meta: null });
    expect((await s.admin('GET', at(a.orgId))).body.Meta.domains.map((d: { domain: string }) => d.domain)).toEqual([d1]);
  });

  it('a domain belongs to at most one organisation: 409 for another, until revoked there', async () => {
    const d = `${uid('one')}.example`;
    expect((await s.admin('PUT', at(a.orgId, d))).status).toBe(200);
    const other = await s.admin('PUT', at(b.orgId, d));
    expect(other.status).toBe(409);
    expect(other.body.Message).toBe('the domain is granted to another organisation; revoke it there first');
    expect((await s.admin('DELETE', at(b.orgId, d))).status).toBe(404);
    expect((await s.admin('DELETE', at(a.orgId, d))).status).toBe(200);
    expect((await s.admin('PUT', at(b.orgId, d))).status).toBe(200);
  });

  it('an unknown organisation is 422 to grant and 404 to list; a domain that is no host name is 400', async () => {
    const ghost = uid('ghost');
    expect((await s.admin('PUT', at(ghost, `${uid('g')}.example`))).status).toBe(422);
    expect((await s.admin('GET', at(ghost))).status).toBe(404);
    for (const bad of ['-lead.example', 'a..b', 'under_score.example', `${'a'.repeat(64)}.example`]) {
      const r = await s.admin('PUT', at(a.orgId, bad));
      expect(r.status, bad).toBe(400);
      expect(r.body.Meta.errors[0].path).toBe('params.domain');
    }
  });

  it('only the admin credential reaches them', async () => {
    expect((await s.gw('PUT', at(a.orgId, `${uid('x')}.example`))).status).toBe(401);
    expect((await s.dash(a.key, 'GET', at(a.orgId))).status).toBe(401);
  });
});
