/**
 * The Lambda authorizer's decision (shared/services/authorizer.ts), in process against the stage's
 * table as the cloud function runs it: the check's spend, simple responses, the context the
 * integration receives. The synthesized construct: test/infra/gateway-authorizer.test.ts.
 */
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { authorize } from '../../shared/services/authorizer';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';
import { onEmulator, startStage, type Stage } from '../support/stage';

// It calls the service in this process, which the emulated stage does not share.
const suite = onEmulator ? describe.skip : describe;

let s: Stage;
let orgId: string;
let apiId: string;
beforeAll(async () => {
  if (onEmulator) return;
  s = await startStage();
  orgId = (await s.tenant()).orgId;
  apiId = await makeApi(s, orgId);
  process.env.AUTHORIZER_API_ID = apiId;
  resetConfig();
});
afterAll(async () => {
  delete process.env.AUTHORIZER_API_ID;
  resetConfig();
  await s?.close();
});

const event = (authorization: string | undefined, path = '/pets', method = 'GET') =>
  ({
    type: 'REQUEST',
    version: '2.0',
    routeArn: 'arn:aws:execute-api:us-east-1:123456789012:abc/$default/GET/pets',
    identitySource: authorization ? [authorization] : [],
    rawPath: path,
    headers: authorization ? { authorization } : {},
    requestContext: { http: { method, path } },
  }) as unknown as APIGatewayRequestAuthorizerEventV2;

suite('Lambda authorizer', () => {
  it("allows with the key's figures in the context, spending one unit; refuses once the quota is spent", async () => {
    const { key, hash } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(apiId), quota_max: 2, quota_renewal_rate: 3600 });
    expect(await authorize(event(`Bearer ${key}`))).toEqual({
      isAuthorized: true,
      context: { api_id: apiId, key_hash: hash, org_id: orgId, quota_remaining: 1, quota_renews: expect.any(Number) },
    });
    expect((await authorize(event(key))).isAuthorized).toBe(true);
    expect(await authorize(event(key))).toEqual({ isAuthorized: false, context: {} });
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(0);
  });

  it("refuses an unknown key, a missing one, another API's key and a path outside allowed_urls", async () => {
    expect((await authorize(event('Bearer nope'))).isAuthorized).toBe(false);
    expect((await authorize(event(undefined))).isAuthorized).toBe(false);
    const other = await makeApi(s, orgId, 'other');
    const { key: otherKey } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(other) });
    expect((await authorize(event(otherKey))).isAuthorized).toBe(false);
    const rights = { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], allowed_urls: [{ url: '^/pets', methods: ['GET'] }] } };
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rights });
    expect((await authorize(event(key, '/pets/1'))).isAuthorized).toBe(true);
    expect((await authorize(event(key, '/orders'))).isAuthorized).toBe(false);
    expect((await authorize(event(key, '/pets/1', 'DELETE'))).isAuthorized).toBe(false);
  });
});

suite('Lambda authorizer: the path it decides on (contract §13)', () => {
  it('decides on the normal form of the decoded path API Gateway hands over, and refuses what upstreams read in different ways', async () => {
    const rights = { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], allowed_urls: [{ url: '^/public', methods: ['GET'] }] } };
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rights });
    expect((await authorize(event(key, '/public/a'))).isAuthorized).toBe(true);
    // API Gateway decodes %2e%2e to .., so both spellings arrive as dot segments.
    expect((await authorize(event(key, '/public/../private/a'))).isAuthorized).toBe(false);
    expect((await authorize(event(key, '/public/./a'))).isAuthorized).toBe(true);
    expect((await authorize(event(key, '/public/a;x'))).isAuthorized).toBe(false);
    expect((await authorize(event(key, '/public\\a'))).isAuthorized).toBe(false);
  });
});
