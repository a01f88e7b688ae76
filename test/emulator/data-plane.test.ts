/**
 * The managed data plane through `npm run emulate` (docs/operating/data-plane.md): the stack
 * synthesized with `-c dataPlane=on`, IAM enforced. A dashboard user creates an API; within 5 s the
 * reconciler (its scheduled run, as no stream feeds emulated functions) has made its routes on the
 * data-plane API, and a request with a key goes through the data plane's Lambda authorizer and
 * HTTP_PROXY integration to the upstream, with the listen path stripped as defined; the quota holds;
 * a deleted API is 404; no function is refused an action by its policy.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { cloudAssembly, FULL_CONTEXT } from '../support/assembly';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/receiver';
import { linesOf, startEmulatedStage, type EmulatedStage } from '../support/stage';

let s: EmulatedStage;
let upstream: Receiver;
let dataPlane: string;
let t: { orgId: string; key: string };
beforeAll(async () => {
  const template = (await cloudAssembly(FULL_CONTEXT)).template;
  const port = await freePort();
  dataPlane = `http://127.0.0.1:${port}`;
  s = await startEmulatedStage(template, { DATA_PLANE_PORT: String(port), SCHEDULE_SECONDS: '1' });
  upstream = await startReceiver();
  t = await s.tenant();
}, 1_800_000);
afterAll(async () => {
  await upstream?.close();
  await s?.close();
});

const through = (path: string, key?: string) => fetch(`${dataPlane}${path}`, { headers: key ? { authorization: key } : {} });

describe('-c dataPlane=on through npm run emulate', () => {
  it('serves a definition written with the dashboard key within 5 s: authorizer, quota, stripped path, upstream; deleted is 404', async () => {
    const apiId = uid('dp');
    const made = await s.dash(t.key, 'POST', '/api/apis', {
      api_definition: {
        api_id: apiId,
        name: apiId,
        proxy: { listen_path: `/${apiId}/`, target_url: `${new URL(upstream.url).origin}/base`, strip_listen_path: true },
      },
    });
    expect(made.status, made.text).toBe(200);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 2, quota_renewal_rate: 3600 });

    const written = Date.now();
    await vi.waitFor(async () => expect((await through(`/${apiId}/pets/1?x=1`, key)).status).toBe(200), { timeout: 5_000, interval: 100 });
    expect(Date.now() - written).toBeLessThan(5_000);
    expect(upstream.calls.at(-1)).toMatchObject({ method: 'GET', url: '/base/pets/1?x=1' });

    // The second unit of a quota of two, then API Gateway's 403 (an authorizer can only deny); no key is 401.
    expect((await through(`/${apiId}/pets/2`, key)).status).toBe(200);
    const spent = await through(`/${apiId}/pets/3`, key);
    expect(spent.status).toBe(403);
    expect(await spent.json()).toEqual({ message: 'Forbidden' });
    expect((await through(`/${apiId}/pets/4`)).status).toBe(401);
    expect(upstream.calls).toHaveLength(2);

    expect((await s.dash(t.key, 'DELETE', `/api/apis/${apiId}`)).status).toBe(200);
    await vi.waitFor(async () => expect((await through(`/${apiId}/pets/1`, key)).status).toBe(404), { timeout: 5_000, interval: 100 });
    expect(linesOf(s, 'DENIED')).toEqual([]);
  });
});
