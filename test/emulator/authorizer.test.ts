/**
 * The Lambda authorizer on the built bundles (docs/using/serving-apis.md): the stack
 * synthesized with `-c demo=on` served by `npm run emulate`, IAM enforced, so ANY /demo/{proxy+}
 * runs the demo authorizer's bundle before the echo integration (infra/demo/echo.ts) as API
 * Gateway does. A key with quota is let through with its context, each request spends exactly one
 * unit, a spent quota and an unknown key are API Gateway's 403, a request without the key header
 * 401 without invoking the authorizer, and no function is refused an action by its policy.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_API_ID } from '../../infra/constructs/gateway-authorizer';
import { readCloudStage } from '../../infra/local/emulator/template';
import { cloudAssembly, FULL_CONTEXT } from '../support/assembly';
import { makeKey, rightsFor } from '../support/fixtures';
import { linesOf, startEmulatedStage, type EmulatedStage } from '../support/stage';

const AUTHORIZER = 'demoAuthorizer';
let s: EmulatedStage;
let orgId: string;
let template: string;
// A synth of its own (-c demo=on -c dataPlane=on, shared with data-plane.test.ts) with bundling.
beforeAll(async () => {
  template = (await cloudAssembly(FULL_CONTEXT)).template;
  s = await startEmulatedStage(template);
  orgId = (await s.tenant()).orgId;
  const api = await s.gw('POST', '/gw/apis', {
    api_id: DEMO_API_ID,
    name: 'Demo',
    org_id: orgId,
    proxy: { listen_path: '/demo/', target_url: 'http://upstream.example' },
  });
  expect(api.status, JSON.stringify(api.body)).toBe(200);
}, 1_800_000);
afterAll(() => s?.close());

/** The authorizer's REPORT lines so far: one per invocation (written just after it answers). */
const authorizerRuns = () => linesOf(s, 'REPORT').filter((l) => l.startsWith(`REPORT ${AUTHORIZER} `)).length;
const settled = (n: number) => vi.waitFor(() => expect(authorizerRuns()).toBe(n), { timeout: 10_000 });
const demo = (path: string, key?: string) => s.call('GET', path, { headers: key ? { authorization: key } : {} });
const remaining = async (key: string) => (await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining;

describe('-c demo=on through npm run emulate', () => {
  it('reads the demo route as guarded by the payload 2.0 authorizer, its key header the identity source, no caching', () => {
    const route = readCloudStage(template, { region: 'us-east-1', account: '0', tableName: 't' }).routes.find((r) => r.routeKey === 'ANY /demo/{proxy+}');
    expect(route?.authorizer).toMatchObject({ identitySource: [{ from: 'header', name: 'authorization' }], ttlSeconds: 0 });
  });

  it('lets a key with quota through: the integration sees the authorizer context, and each request spends exactly one unit', async () => {
    const { key, hash } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(DEMO_API_ID), quota_max: 3, quota_renewal_rate: 3600 });
    expect(await remaining(key)).toBe(3);
    const before = authorizerRuns();
    const first = await demo('/demo/pets/7', key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      demo: true,
      path: '/demo/pets/7',
      authorizer: { api_id: DEMO_API_ID, key_hash: hash, org_id: orgId, quota_remaining: 2 },
    });
    expect(first.body.authorizer.quota_renews).toBeGreaterThan(Date.now() / 1000);
    expect(await remaining(key)).toBe(2);
    const second = await demo('/demo/pets', `Bearer ${key}`);
    expect(second.status).toBe(200);
    expect(second.body.authorizer.quota_remaining).toBe(1);
    expect(await remaining(key)).toBe(1);
    await settled(before + 2);
  });

  it('refuses a spent quota with 403 Forbidden (API Gateway has no 429), where the check says 429 QuotaExceeded', async () => {
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(DEMO_API_ID), quota_max: 1, quota_renewal_rate: 3600 });
    expect((await demo('/demo/x', key)).status).toBe(200);
    expect(await remaining(key)).toBe(0);
    const refused = await demo('/demo/x', key);
    expect(refused).toMatchObject({ status: 403, body: { message: 'Forbidden' } });
    const check = await s.gw('POST', '/gw/sessions/check', { key, api_id: DEMO_API_ID, path: '/demo/x', method: 'GET' });
    expect(check).toMatchObject({ status: 429, body: { allowed: false, reason: 'QuotaExceeded' } });
    expect(await remaining(key)).toBe(0);
  });

  it('refuses an unknown key with 403 Forbidden after invoking the authorizer', async () => {
    const before = authorizerRuns();
    expect(await demo('/demo/x', 'no-such-key')).toMatchObject({ status: 403, body: { message: 'Forbidden' } });
    await settled(before + 1);
  });

  it('answers 401 Unauthorized without invoking the authorizer when the key header is missing', async () => {
    const mark = s.log.length;
    expect(await demo('/demo/x')).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    // Another function's invocation after the answer: the emulator prints each REPORT line before it
    // answers, all on one output, so once that line is in, any the 401 caused is in too.
    expect((await s.gw('GET', '/gw/keys/no-such-key')).status).toBe(404);
    const since = () => s.log.slice(mark).filter((l) => l.startsWith('REPORT '));
    await vi.waitFor(() => expect(since().some((l) => !l.startsWith(`REPORT ${AUTHORIZER} `))).toBe(true), { timeout: 10_000 });
    expect(since().filter((l) => l.startsWith(`REPORT ${AUTHORIZER} `))).toEqual([]);
  });

  it('needed no permission the template does not grant: 0 IAM denials, no function error', () => {
    expect(authorizerRuns()).toBeGreaterThan(0);
    expect(linesOf(s, 'DENIED')).toEqual([]);
    expect(linesOf(s, 'ERROR')).toEqual([]);
  });
});
