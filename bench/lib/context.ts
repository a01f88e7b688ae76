/** What every scenario gets: the stage, its credentials, a tenant, and a raw client on the same DynamoDB Local. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { resetConfig } from '../../shared/config';
import { WEBHOOK_LIMITS } from '../../shared/limits';
import { ddb, resetClient } from '../../shared/store/db/client';
import { call } from './http';
import type { Floor } from './floor';
import type { BenchStage } from './stage';

export interface Ctx {
  stage: BenchStage;
  raw: DynamoDBDocumentClient;
  /** The bare node:http server making the same single DynamoDB call (bench/floor.ts). */
  floor: Floor;
  gw: Record<string, string>;
  admin: Record<string, string>;
  /** A tenant created through the admin routes. */
  tenant(name: string): Promise<{ orgId: string; dash: Record<string, string> }>;
  /**
   * The dashboard headers of a tenant with room for one more webhook: a new tenant every
   * `WEBHOOK_LIMITS.hooksPerOrg` calls, for scenarios that create hooks by the thousand.
   */
  hookOwners(name: string): () => Promise<Record<string, string>>;
}

let tenants = 0;

export function context(stage: BenchStage, floor: Floor): Ctx {
  // The bench process talks to the stage's DynamoDB Local with the service's own client settings.
  Object.assign(process.env, { DYNAMODB_ENDPOINT: stage.endpoint, TABLE_NAME: stage.table, GW_SECRET: stage.gwSecret, ADMIN_SECRET: stage.adminSecret });
  resetConfig();
  resetClient();
  const gw = { 'x-gw-authorization': stage.gwSecret };
  const admin = { 'admin-auth': stage.adminSecret };
  return {
    stage,
    floor,
    raw: ddb(),
    gw,
    admin,
    async tenant(name) {
      const orgId = `${name}-${Date.now().toString(36)}-${++tenants}`;
      const org = await call(stage.url, 'POST', '/admin/organisations', admin, { id: orgId, owner_name: name });
      if (org.status !== 200) throw new Error(`org: ${JSON.stringify(org.body)}`);
      const user = await call(stage.url, 'POST', '/admin/users', admin, { org_id: orgId, email_address: `bench@${orgId}.example` });
      if (user.status !== 200) throw new Error(`user: ${JSON.stringify(user.body)}`);
      return { orgId, dash: { authorization: `Bearer ${user.body.Meta.access_key}` } };
    },
    hookOwners(name) {
      let made = 0;
      let dash: Promise<Record<string, string>> | undefined;
      return () => {
        if (made++ % WEBHOOK_LIMITS.hooksPerOrg === 0) dash = this.tenant(name).then((t) => t.dash);
        return dash!;
      };
    },
  };
}

/** An API and a key granting it, through the routes. */
export async function apiAndKey(ctx: Ctx, orgId: string, session: Record<string, unknown> = {}) {
  const apiId = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const api = await call(ctx.stage.url, 'POST', '/gw/apis', ctx.gw, {
    api_id: apiId,
    name: apiId,
    org_id: orgId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
  });
  if (api.status !== 200) throw new Error(`api: ${JSON.stringify(api.body)}`);
  const key = await call(ctx.stage.url, 'POST', '/gw/keys/create', ctx.gw, {
    org_id: orgId,
    access_rights: { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'] } },
    ...session,
  });
  if (key.status !== 200) throw new Error(`key: ${JSON.stringify(key.body)}`);
  return { apiId, key: key.body.key as string, hash: key.body.key_hash as string };
}
