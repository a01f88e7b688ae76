import type { Stage } from './stage';

let n = 0;

/** A classic API in `orgId`, created through the gateway route; answers its api_id. */
export async function makeApi(s: Stage, orgId: string, name = 'api'): Promise<string> {
  const apiId = `${name}-${process.pid}-${++n}-${Date.now().toString(36)}`;
  const r = await s.gw('POST', '/gw/apis', { api_id: apiId, name, org_id: orgId, proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' } });
  if (r.status !== 200) throw new Error(`API create failed: ${JSON.stringify(r.body)}`);
  return apiId;
}

export const rightsFor = (...apiIds: string[]) =>
  Object.fromEntries(apiIds.map((id) => [id, { api_id: id, api_name: id, versions: ['Default'] }]));

/** A key through POST /gw/keys/create; answers the clear key and its hash. */
export async function makeKey(s: Stage, session: Record<string, unknown>): Promise<{ key: string; hash: string }> {
  const r = await s.gw('POST', '/gw/keys/create', session);
  if (r.status !== 200) throw new Error(`key create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { key: r.body.key, hash: r.body.key_hash };
}
