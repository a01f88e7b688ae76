/** The organisation file's pure rules (shared/domain/organisation-file.ts): its canonical text, and what makes a file contradict itself. */
import { describe, expect, it } from 'vitest';
import { byId, canonicalJson, fileCounts, fileProblems, withoutInstallation } from '../../shared/domain/organisation-file';
import type { OrganisationFile } from '../../shared/schemas/organisation-file';
import { emptyOrgFile } from '../support/fixtures';

const stamp = '2026-11-29T00:00:00.000Z';
const file = (over: Partial<Record<keyof OrganisationFile, unknown>> = {}): OrganisationFile =>
  ({ ...emptyOrgFile('acme', stamp), ...over }) as OrganisationFile;

describe('the canonical text', () => {
  it('sorts every object member at every depth and keeps array order: one text per content', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('orders a kind by id and leaves what belongs to the installation behind', () => {
    expect(byId([{ id: 'b' }, { id: 'a' }, { id: 'c' }], (o) => o.id).map((o) => o.id)).toEqual(['a', 'b', 'c']);
    expect(withoutInstallation({ id: 'x', version: 4, offboarding_since: stamp, active: false })).toEqual({ id: 'x', active: false });
  });
});

describe('a file that contradicts itself', () => {
  it("is consistent when every object is its organisation's and every id is there once", () => {
    expect(fileProblems(file())).toEqual([]);
    const none = { domains: 0, apis: 0, policies: 0, oauth_clients: 0, keys: 0, webhooks: 0, templates: 0, users: 0 };
    expect(fileCounts(file())).toEqual({ ...none, portal_settings: 0, catalogue: 0, developers: 0, key_requests: 0 });
  });

  it('names an object of another organisation, an id twice, a client of an API the file lacks, a user name or template id twice', () => {
    const api = { id: 'a'.repeat(24), api_id: 'one', org_id: 'acme' };
    const key = (hash: string, username?: string) => ({ session: { key_hash: hash, org_id: 'acme' }, ...(username ? { username } : {}) });
    const problems = fileProblems(
      file({
        apis: [api, { ...api, id: 'b'.repeat(24) }],
        policies: [{ id: 'p', org_id: 'other' }],
        oauth_clients: [{ client_id: 'c', api_id: 'missing', org_id: 'acme' }],
        keys: [key('1'.repeat(64), 'alice'), key('2'.repeat(64), 'alice')],
        templates: [
          { _id: 'c'.repeat(24), id: 't', org_id: 'acme' },
          { _id: 'd'.repeat(24), id: 't', org_id: 'acme' },
        ],
        organisation_session: { session: { org_id: 'other' } },
      }),
    );
    expect(problems.map((p) => p.path)).toEqual([
      'policies[0].org_id',
      'organisation_session.session.org_id',
      'apis[1]',
      'keys[1]',
      'templates[1]',
      'oauth_clients[0].api_id',
    ]);
    expect(problems[2]!.message).toBe('api_id one is in the file twice');
  });

  it('names a portal object of another organisation, a developer or request twice, and what the portal names that the file lacks', () => {
    const developer = { id: 'e'.repeat(24), org_id: 'acme', email_lower: 'ada@example.com' };
    const request = { id: 'f'.repeat(24), org_id: 'acme', developer_id: '0'.repeat(24), api_id: 'one', plan_id: 'pro', key_hash: '3'.repeat(64) };
    const problems = fileProblems(
      file({
        portal_settings: { org_id: 'acme', enabled: true, domain: 'dev.acme.example', hook_ids: ['h1'] },
        catalogue: [{ api_id: 'one', org_id: 'acme', plans: [{ id: 'pro', policy_id: 'gone' }] }],
        developers: [developer, { ...developer, id: '9'.repeat(24) }, { ...developer, org_id: 'other', email_lower: 'b@example.com' }],
        key_requests: [request, request],
      }),
    );
    expect(problems.map((p) => `${p.path} ${p.message}`)).toEqual([
      "developers[2].org_id must be the file's organisation acme",
      `developers[2] developer id ${developer.id} is in the file twice`,
      'developers[1] e-mail ada@example.com is in the file twice',
      `key_requests[1] key request id ${request.id} is in the file twice`,
      'catalogue[0].api_id API one is not in the file',
      'catalogue[0].plans[0].policy_id policy gone is not in the file',
      `key_requests[0].developer_id developer ${'0'.repeat(24)} is not in the file`,
      `key_requests[0].key_hash key ${'3'.repeat(64)} is not in the file`,
      `key_requests[1].developer_id developer ${'0'.repeat(24)} is not in the file`,
      `key_requests[1].key_hash key ${'3'.repeat(64)} is not in the file`,
      'portal_settings.domain domain dev.acme.example is not in the file',
      'portal_settings.hook_ids[0] webhook h1 is not in the file',
    ]);
  });
});
