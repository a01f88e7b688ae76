/** gwctl's plan, without a stage: field paths, reference order, --prune, --select-tag. */
import { describe, expect, it } from 'vitest';
import type { Live } from '../../tools/gwctl/kinds/kind';
import type { ConfigFile, ConfigObject, Kind } from '../../tools/gwctl/model';
import { fieldChanges, makePlan } from '../../tools/gwctl/plan';
import type { OrgState } from '../../tools/gwctl/state';

const api = (id: string, tags: string[], url = 'https://up.example', version_of?: { base: string; name: string }): ConfigObject => ({
  kind: 'api',
  spec: {
    openapi: '3.0.3',
    info: { title: id, version: '1' },
    'x-gw-api-gateway': { info: { id, name: id }, server: { gatewayTags: { enabled: false, tags } }, upstream: { url } },
  },
  ...(version_of ? { version_of } : {}),
});
const hook = (name: string): ConfigObject => ({
  kind: 'hook',
  spec: { name, method: 'POST', target_path: 'https://h.example', header_map: { A: '${env:A}' } },
});
const policy = (id: string, tags: string[]): ConfigObject => ({ kind: 'policy', spec: { id, tags, access_rights: {} } });
const client = (apiId: string): ConfigObject => ({ kind: 'oauth-client', spec: { api_id: apiId, client_id: `c-${apiId}`, redirect_uri: 'https://x.example' } });
const file = (o: ConfigObject, path = `${o.kind}/${JSON.stringify(o.spec).length}`): ConfigFile => ({ path, object: o });
function stateOf(objects: Array<{ key: string; o: ConfigObject }>): OrgState {
  const m: OrgState = new Map();
  for (const { key, o } of objects) m.set(o.kind as Kind, [...(m.get(o.kind) ?? []), { key, object: o, etag: '"1"', state: {} } satisfies Live]);
  return m;
}

describe('gwctl plan', () => {
  it('names each changed field by its path, old and new', () => {
    expect(fieldChanges({ a: { b: [1, 2], c: 'x' } }, { a: { b: [1, 3, 4], d: true } })).toEqual([
      { path: 'a.b[1]', old: 2, new: 3 },
      { path: 'a.b[2]', new: 4 },
      { path: 'a.c', old: 'x' },
      { path: 'a.d', new: true },
    ]);
  });

  it('orders creates by reference (hooks, base APIs, versions, policies, clients) and deletes the other way round, deletes only with --prune', () => {
    const files = [client('base'), policy('p', []), api('v2', [], undefined, { base: 'base', name: 'v2' }), api('base', []), hook('h')].map((o) => file(o));
    const state = stateOf([
      { key: 'old-api', o: api('old-api', []) },
      { key: 'old-hook', o: hook('old-hook') },
    ]);
    const kept = makePlan('org', files, state, { selectTags: [], prune: false });
    expect(kept.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['create h', 'create base', 'create v2', 'create p', 'create base/c-base']);
    expect(kept.unmanaged).toEqual([
      { kind: 'api', key: 'old-api' },
      { kind: 'hook', key: 'old-hook' },
    ]);
    const pruned = makePlan('org', files, state, { selectTags: [], prune: true });
    expect(pruned.changes.slice(-2).map((c) => `${c.action} ${c.key} ${c.etag}`)).toEqual(['delete old-api "1"', 'delete old-hook "1"']);
  });

  it('write-only header values are not compared; their names are', () => {
    const live = hook('h');
    (live.spec.header_map as Record<string, string>).A = '${env:GW_HOOK_H_A}';
    expect(makePlan('org', [file(hook('h'))], stateOf([{ key: 'h', o: live }]), { selectTags: [], prune: false }).changes).toEqual([]);
  });

  it('--select-tag: only objects carrying every selected tag (OAuth clients with their API); others are neither changed nor pruned', () => {
    const files = [
      api('mine', ['team-a'], 'https://new.example'),
      policy('pa', ['team-a']),
      client('mine'),
      hook('h'),
      api('theirs', ['team-b'], 'https://new.example'),
    ].map((o) => file(o));
    const state = stateOf([
      { key: 'mine', o: api('mine', ['team-a']) },
      { key: 'theirs', o: api('theirs', ['team-b']) },
      { key: 'gone', o: api('gone', ['team-a']) },
      { key: 'other-gone', o: api('other-gone', ['team-b']) },
    ]);
    const plan = makePlan('org', files, state, { selectTags: ['team-a'], prune: true });
    expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      'update api mine',
      'create policy pa',
      'create oauth-client mine/c-mine',
      'delete api gone',
    ]);
    expect(plan.changes[0]!.fields).toEqual([{ path: 'spec.x-gw-api-gateway.upstream.url', old: 'https://up.example', new: 'https://new.example' }]);
  });
});
