/**
 * Concurrency (RELIABILITY.md), generated from the route table:
 * - every route with `etag: true`: a stale If-Match is 412 and changes nothing; 10 concurrent
 *   writers holding the same version -> exactly one 2xx (updates: the other nine 412);
 * - every route with `idempotent: true`: a replay answers the same, another body under the same
 *   key is 422, 10 concurrent duplicates create exactly one object; a storage failure after the
 *   key is claimed releases it, so the client's retry with the same key runs;
 * - concurrent creates of one unique value -> exactly one 200, the rest 409, the winner stored.
 * A route added to the table with either flag and no fixture fails the suite.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import type { Answer } from '../support/stage';
import { useStage } from '../support/file-stage';
import { withThrottledWrite } from '../support/storage-faults';
import { creating, GUARDED } from './resources/fixtures';
import { assetData, importDoc, oasDoc, rightsFor, uid } from '../support/fixtures';
import { buildWorld, type World } from '../support/world';
import { SECRET_WITHHELD, withholdSecrets } from '../../shared/domain/idempotent-reply';

const N = 10;
const s = useStage();
let W: World;
beforeAll(async () => {
  W = await buildWorld(s, 'cc');
});

const etagRoutes = routeList.filter((r) => r.etag);
const idempotentRoutes = routeList.filter((r) => r.idempotent);
const statuses = (rs: Answer[]) => rs.map((r) => r.status).sort((a, b) => a - b);
const times = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

describe('every route is covered', () => {
  it('has a fixture for each If-Match route and each idempotent POST in the table', () => {
    expect(etagRoutes.length).toBeGreaterThan(0);
    expect(
      etagRoutes.filter((r) => !GUARDED[r.name]).map((r) => r.name),
      'add a fixture to GUARDED',
    ).toEqual([]);
    const known = creating(null as never, { orgId: 'x' } as World, 'x');
    expect(
      idempotentRoutes.filter((r) => !known[r.name]).map((r) => r.name),
      'add a fixture to creating()',
    ).toEqual([]);
    expect(idempotentRoutes.every((r) => r.method === 'POST')).toBe(true);
  });
});

describe('If-Match', () => {
  for (const r of etagRoutes) {
    const deletes = r.method === 'DELETE';
    it(`${r.method} ${r.path}: 412 on a stale version, nothing changed`, async () => {
      const g = await GUARDED[r.name]!(s, W);
      const stale = await g.etag();
      await g.bump();
      const fresh = await g.etag();
      expect(fresh).not.toBe(stale);
      const res = await g.call(stale);
      expect(res.status, JSON.stringify(res.body)).toBe(412);
      expect(await g.exists()).toBe(true);
      expect(await g.etag()).toBe(fresh);
    });

    it(`${r.method} ${r.path}: ${N} concurrent writers with one version -> exactly one wins`, async () => {
      const g = await GUARDED[r.name]!(s, W);
      const version = await g.etag();
      const rs = await times(N, () => g.call(version));
      const got = statuses(rs);
      expect(
        got.filter((x) => x === 200),
        JSON.stringify(got),
      ).toHaveLength(1);
      if (deletes) {
        // A loser that arrives after the delete finds nothing: 404 before preconditions (RFC 9110 13.2.1).
        expect(
          got.filter((x) => x !== 200).every((x) => x === 412 || x === 404),
          JSON.stringify(got),
        ).toBe(true);
        expect(await g.exists()).toBe(false);
      } else {
        expect(got, JSON.stringify(rs.filter((x) => x.status !== 200 && x.status !== 412).map((x) => x.body))).toEqual([200, ...Array(N - 1).fill(412)]);
        expect(Number(JSON.parse(await g.etag()))).toBe(Number(JSON.parse(version)) + 1);
      }
    });

    it(`${r.method} ${r.path}: compares strongly (weak tag 412), takes a list, and * (412 once there is no object)`, async () => {
      const g = await GUARDED[r.name]!(s, W);
      const stale = await g.etag();
      await g.bump();
      const fresh = await g.etag();
      const weak = await g.call(`W/${fresh}`);
      expect(weak.status, JSON.stringify(weak.body)).toBe(412);
      expect(await g.etag()).toBe(fresh);
      const missed = await g.call(`${stale}, W/${fresh}`);
      expect(missed.status, JSON.stringify(missed.body)).toBe(412);
      const listed = await g.call(`${stale}, ${fresh}`);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      if (deletes) {
        expect(await g.exists()).toBe(false);
        const gone = await g.call('*');
        expect(gone.status, JSON.stringify(gone.body)).toBe(412);
        const again = await GUARDED[r.name]!(s, W);
        expect((await again.call('*')).status).toBe(200);
        expect(await again.exists()).toBe(false);
      } else {
        const any = await g.call('*');
        expect(any.status, JSON.stringify(any.body)).toBe(200);
        expect(Number(JSON.parse(await g.etag()))).toBe(Number(JSON.parse(fresh)) + 2);
      }
    });
  }
});

describe('Idempotency-Key', () => {
  for (const r of idempotentRoutes) {
    const secrets = r.secrets ?? [];
    /** The answer as a replay gives it: the secrets the route shows once withheld. */
    const asReplayed = (a: Answer) => JSON.parse(withholdSecrets(a.text, secrets));
    it(
      `POST ${r.path}: replay answers the ` +
        `same${secrets.length ? ` with ${secrets.join(', ')} withheld` : ''}, another body is 422, ${N} ` +
        `concurrent duplicates create one`,
      async () => {
        const c = creating(s, W, uid('idem'))[r.name]!;
        const count0 = await c.count?.();
        const key = uid('k');
        const first = await c.send(0, key);
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        const replay = await c.send(0, key);
        expect(replay.status).toBe(200);
        expect(replay.body).toEqual(asReplayed(first));
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.headers.get('idempotent-secrets-withheld')).toBe(secrets.length ? secrets.join(', ') : null);
        for (const path of secrets) {
          const shown = path.split('.').reduce((v: any, k) => v?.[k], first.body);
          expect(typeof shown === 'string' && shown !== SECRET_WITHHELD, `${path} shown in the first answer`).toBe(true);
          expect(replay.text, `${path} never shown again`).not.toContain(shown);
        }
        const other = await c.send(1, key);
        expect(other.status, JSON.stringify(other.body)).toBe(422);
        if (count0 !== undefined) expect(await c.count!()).toBe(count0 + 1);

        const key2 = uid('k');
        const rs = await times(N, () => c.send(2, key2));
        const got = statuses(rs);
        // Duplicates still running when one is in progress are told so (409); none creates.
        expect(
          got.every((x) => x === 200 || x === 409),
          JSON.stringify(got),
        ).toBe(true);
        const oks = rs.filter((x) => x.status === 200);
        expect(oks.length).toBeGreaterThanOrEqual(1);
        for (const o of oks) expect(asReplayed(o)).toEqual(asReplayed(oks[0]!));
        const after = await c.send(2, key2);
        expect(after.status).toBe(200);
        expect(after.body).toEqual(asReplayed(oks[0]!));
        if (count0 !== undefined) expect(await c.count!()).toBe(count0 + 2);
      },
    );

    it(`POST ${r.path}: a storage failure after the key is claimed releases it, so the retry runs`, async () => {
      const c = creating(s, W, uid('rel'))[r.name]!;
      const count0 = await c.count?.();
      const key = uid('k');
      await c.prepare?.(0);
      const { result: failed, throttled } = await withThrottledWrite(() => c.send(0, key));
      expect(throttled).toBe(1);
      expect(failed.status, JSON.stringify(failed.body)).toBe(503);
      // Without the release the record would still say "in progress": 409 for a day.
      const retry = await c.send(0, key);
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      if (count0 !== undefined) expect(await c.count!()).toBe(count0 + 1);
    });
  }
});

/** Concurrent creates of one unique value, each body numbered; `read` answers the stored number. */
interface Race {
  fire(i: number): Promise<Answer>;
  /** The stored body number, read back (undefined where nothing can be read). */
  read(winner: Answer): Promise<number | undefined>;
}

function races(): Record<string, Race> {
  const v = uid('u');
  const orgId = `race-${v}`;
  const assetId = `race-${v}`;
  const policyId = `race-${v}`;
  const apiId = `race-${v}`;
  const user = `race-user-${v}`;
  const clientId = `race-${v}`;
  const email = `race-${v}@example.com`;
  const num = (x: unknown) => (typeof x === 'string' && /\d+$/.test(x) ? Number(/(\d+)$/.exec(x)![1]) : undefined);
  return {
    'organisation id': {
      fire: (i) => s.admin('POST', '/admin/organisations', { id: orgId, owner_name: `n${i}` }),
      read: async () => undefined,
    },
    'user e-mail (any case)': {
      fire: (i) => s.admin('POST', '/admin/users', { org_id: W.orgId, email_address: i % 2 ? email.toUpperCase() : email, first_name: `n${i}` }),
      read: async () => {
        const users = (await s.dash(W.key, 'GET', '/api/users?p=-1')).body.users.filter((u: any) => u.email_address.toLowerCase() === email);
        expect(users).toHaveLength(1);
        return num(users[0].first_name);
      },
    },
    'asset custom id': {
      fire: (i) => s.dash(W.key, 'POST', '/api/assets', { id: assetId, name: `n${i}`, data: assetData('r') }),
      read: async () => num((await s.dash(W.key, 'GET', `/api/assets/${assetId}`)).body.name),
    },
    'policy id': {
      fire: (i) => s.gw('POST', '/gw/policies', { id: policyId, name: `n${i}` }),
      read: async () => num((await s.gw('GET', `/gw/policies/${policyId}`)).body.name),
    },
    'api_id (classic and OAS creates mixed)': {
      fire: (i) =>
        i % 2
          ? s.gw('POST', '/gw/apis', { api_id: apiId, name: `n${i}`, org_id: W.orgId, proxy: { listen_path: `/${apiId}/`, target_url: 'http://u.example' } })
          : s.gw('POST', '/gw/apis/oas', oasDoc(apiId, W.orgId, { info: { id: apiId, orgId: W.orgId, name: `n${i}`, state: { active: true } } })),
      read: async () => num((await s.gw('GET', `/gw/apis/${apiId}`)).body.name),
    },
    'listen path (classic and OAS creates and imports mixed, one path written three ways)': {
      fire: (i) => {
        const path = [`/lp-${v}/`, `/lp-${v}`, `lp-${v}//`][i % 3]!;
        const id = `lp-${v}-${i}`;
        if (i % 3 === 0)
          return s.gw('POST', '/gw/apis', { api_id: id, name: `n${i}`, org_id: W.orgId, proxy: { listen_path: path, target_url: 'http://u.example' } });
        if (i % 3 === 1)
          return s.gw(
            'POST',
            '/gw/apis/oas',
            oasDoc(id, W.orgId, { info: { id, orgId: W.orgId, name: `n${i}`, state: { active: true } }, gateway: { server: { listenPath: { value: path } } } }),
          );
        return s.dash(W.key, 'POST', `/api/apis/oas/import?listenPath=/lp-${v}/`, JSON.stringify(importDoc(`n${i}`)), { 'content-type': 'application/json' });
      },
      // The path belongs to the winner: one more API on it is refused (naming nobody, contract §13).
      read: async (won) => {
        const winner = won.body.key ?? won.body.ID;
        const again = await s.gw('POST', '/gw/apis', { api_id: `lp-${v}-late`, org_id: W.orgId, proxy: { listen_path: `/lp-${v}` } });
        expect(again.body.message).toBe(`listen path /lp-${v} is taken`);
        return num((await s.gw('GET', `/gw/apis/${winner}`)).body.name);
      },
    },
    'basic-auth user name': {
      fire: (i) =>
        s.gw('POST', '/gw/keys/create', {
          org_id: W.orgId,
          access_rights: rightsFor(W.apiId),
          alias: `n${i}`,
          basic_auth_data: { user, password: 'pw-123456' },
        }),
      // The user name resolves to the winner's key.
      read: async (won) => {
        const alias = num((await s.gw('GET', `/gw/keys/${won.body.key}`)).body.alias);
        const r = await s.dash(W.key, 'PUT', `/api/apis/${W.apiId}/keys/${user}?username=true`, {
          access_rights: rightsFor(W.apiId),
          basic_auth_data: { user },
        });
        expect(r.body.key_hash, JSON.stringify(r.body)).toBe(won.body.key_hash);
        return alias;
      },
    },
    'OAuth client_id': {
      fire: (i) =>
        s.gw('POST', '/gw/oauth/clients/create', { api_id: W.apiId, redirect_uri: 'https://r.example/cb', client_id: clientId, description: `n${i}` }),
      read: async () => num((await s.gw('GET', `/gw/oauth/clients/${W.apiId}`)).body.find((x: any) => x.client_id === clientId)?.description),
    },
  };
}

describe('concurrent creates of one unique value', () => {
  for (const [name] of Object.entries(races())) {
    it(`${name}: exactly one 200, the rest 409, the winner stored`, async () => {
      const race = races()[name]!;
      const rs = await times(N, (i) => race.fire(i));
      const got = statuses(rs);
      expect(got, JSON.stringify(rs.filter((x) => x.status >= 500).map((x) => x.body))).toEqual([200, ...Array(N - 1).fill(409)]);
      const winner = rs.findIndex((x) => x.status === 200);
      const stored = await race.read(rs[winner]!);
      if (name !== 'organisation id') expect(stored).toBe(winner);
    });
  }
});
