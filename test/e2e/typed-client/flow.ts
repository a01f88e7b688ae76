/**
 * A client written as another team would write it: openapi-fetch over the types openapi-typescript
 * generates from /openapi.json (`./api`, written next to this file by test/e2e/typed-client.test.ts,
 * which compiles the pair under --strict). It uses no casts: every body it sends and every field
 * it reads is checked against the document's types.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './api';

export interface Credentials {
  admin: string;
  gateway: string;
}

/** What the flow saw, for the test to check. */
export interface FlowResult {
  orgId: string;
  userEmail: string;
  apiId: string;
  keyHash: string;
  allowed: boolean;
  quotaRemaining: number;
  refusal: components['schemas']['CheckRefusal']['reason'] | undefined;
  listedUsers: number;
}

export async function runFlow(baseUrl: string, credentials: Credentials, tag: string): Promise<FlowResult> {
  const admin = createClient<paths>({ baseUrl, headers: { 'Admin-Auth': credentials.admin } });
  const gateway = createClient<paths>({ baseUrl, headers: { 'X-Gw-Authorization': credentials.gateway } });

  const org = await admin.POST('/admin/organisations', { body: { id: `typed-${tag}`, owner_name: 'Typed client' } });
  if (!org.data) throw new Error(`organisation: ${org.response.status} ${JSON.stringify(org.error)}`);
  const orgId: string = org.data.Meta;

  const user = await admin.POST('/admin/users', { body: { org_id: orgId, email_address: `typed@${tag}.example` } });
  if (!user.data) throw new Error(`user: ${user.response.status} ${JSON.stringify(user.error)}`);
  const accessKey: string = user.data.Meta.access_key;
  const dashboard = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${accessKey}` } });
  const users = await dashboard.GET('/api/users', { params: { query: { page_size: 10 } } });
  if (!users.data) throw new Error(`users: ${users.response.status} ${JSON.stringify(users.error)}`);

  const apiId = `typed-api-${tag}`;
  const api = await gateway.POST('/gw/apis/oas', {
    body: {
      openapi: '3.0.3',
      info: { title: 'Typed', version: '1.0.0' },
      paths: {},
      'x-gw-api-gateway': {
        info: { id: apiId, name: 'Typed', orgId, state: { active: true } },
        upstream: { url: 'http://upstream.example' },
        server: { listenPath: { value: `/typed-${tag}/`, strip: true } },
      },
    },
  });
  if (!api.data) throw new Error(`api: ${api.response.status} ${JSON.stringify(api.error)}`);

  const key = await gateway.POST('/gw/keys/create', {
    body: { org_id: orgId, access_rights: { [apiId]: { api_id: apiId, api_name: 'Typed', versions: ['Default'] } }, quota_max: 1, quota_renewal_rate: 3600 },
  });
  if (!key.data) throw new Error(`key: ${key.response.status} ${JSON.stringify(key.error)}`);

  const check = await gateway.POST('/gw/sessions/check', { body: { key: key.data.key, api_id: apiId } });
  if (!check.data) throw new Error(`check: ${check.response.status} ${JSON.stringify(check.error)}`);
  // The quota of one is spent: the second check is the documented 429 refusal.
  const again = await gateway.POST('/gw/sessions/check', { body: { key: key.data.key, api_id: apiId } });

  return {
    orgId,
    userEmail: user.data.Meta.email_address,
    apiId: api.data.key,
    keyHash: key.data.key_hash,
    allowed: check.data.allowed,
    quotaRemaining: check.data.quota_remaining,
    refusal: again.error && 'reason' in again.error ? again.error.reason : undefined,
    listedUsers: users.data.users?.length ?? 0,
  };
}
