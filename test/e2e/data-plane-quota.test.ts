/**
 * The managed data plane's route quota at write time (shared/store/host-claim-counts.ts): with the
 * data plane on (DATA_PLANE_LISTEN_PATHS_MAX), a listen path past a host's bound is 422 and nothing
 * is stored; each owned domain has a bound of its own (an API of its own); moving a listen path on
 * its host and deleting an API keep the count exact; concurrent creates never pass the bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { resetConfig } from '../../shared/config';
import { ddb, tableName } from '../../shared/store/db/client';
import { hostClaimKeys, recountHostClaims } from '../../shared/store/host-claim-counts';
import { loadEveryClaim } from '../../shared/store/listen-claims';
import { uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';
import { onEmulator } from '../support/stage';

// The bound is a setting of the stage's process, which the emulated stage does not share.
const suite = onEmulator ? describe.skip : describe;
const s = useStage();
const [t] = useTenants(s, 1);
const MAX = 3;

beforeAll(() => {
  process.env.DATA_PLANE_LISTEN_PATHS_MAX = String(MAX);
  resetConfig();
});
afterAll(() => {
  delete process.env.DATA_PLANE_LISTEN_PATHS_MAX;
  resetConfig();
});

const create = (apiId: string, listenPath: string, domain?: string) =>
  s.dash(t.key, 'POST', '/api/apis', {
    api_definition: { api_id: apiId, name: apiId, ...(domain ? { domain } : {}), proxy: { listen_path: listenPath, target_url: 'http://u.example' } },
  });

suite('listen paths per host with the data plane on', () => {
  it('refuses the listen path past the bound with 422 and stores nothing; a domain counts apart; a delete frees a place', async () => {
    const ids = Array.from({ length: MAX }, () => uid('q'));
    for (const id of ids) expect((await create(id, `/${id}/`)).status).toBe(200);
    const over = uid('over');
    const refused = await create(over, `/${over}/`);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.Message ?? refused.text).toContain(`the shared hosts already hold ${MAX} listen paths`);
    expect((await s.dash(t.key, 'GET', `/api/apis/${over}`)).status).toBe(404);

    const dom = `${uid('own')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${t.orgId}/domains/${dom}`)).status).toBe(200);
    const onDomain = uid('dom');
    expect((await create(onDomain, `/${ids[0]}/`, dom)).status).toBe(200);

    // A listen path moved on its host takes no second place.
    const moved = await s.dash(t.key, 'PUT', `/api/apis/${ids[1]}`, {
      api_definition: { api_id: ids[1], name: ids[1], proxy: { listen_path: `/${ids[1]}-moved/`, target_url: 'http://u.example' } },
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await create(over, `/${over}/`)).status).toBe(422);

    expect((await s.dash(t.key, 'DELETE', `/api/apis/${ids[2]}`)).status).toBe(200);
    expect((await create(over, `/${over}/`)).status).toBe(200);
  });

  it('never lets concurrent creates pass the bound on a fresh host', async () => {
    const dom = `${uid('race')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${t.orgId}/domains/${dom}`)).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 8 }, () => uid('r')).map((id) => create(id, `/${id}/`, dom)));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(MAX).fill(200), ...Array(8 - MAX).fill(422)]);
  });

  it('counts claims stored before the count existed once recounted (npm run claims:report -- --count)', async () => {
    const dom = `${uid('old')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${t.orgId}/domains/${dom}`)).status).toBe(200);
    for (const id of [uid('o'), uid('o')]) expect((await create(id, `/${id}/`, dom)).status).toBe(200);
    // As an installation whose APIs were written before: no count.
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: hostClaimKeys.count(dom) }));
    const { set, moved } = await recountHostClaims(await loadEveryClaim());
    expect(set.get(dom)).toBe(2);
    expect(moved).toEqual([]);
    const third = uid('o');
    expect((await create(third, `/${third}/`, dom)).status).toBe(200);
    const fourth = uid('o');
    expect((await create(fourth, `/${fourth}/`, dom)).status).toBe(422);
    // Nothing to set when the counts are true.
    expect((await recountHostClaims(await loadEveryClaim())).set.size).toBe(0);
  });
});
