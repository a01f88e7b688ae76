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
    expect(fileCounts(file())).toEqual({ domains: 0, apis: 0, policies: 0, oauth_clients: 0, keys: 0, webhooks: 0, templates: 0, users: 0 });
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
});
