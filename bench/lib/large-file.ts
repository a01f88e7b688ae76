import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from './context';
import { call } from './http';

type Obj = Record<string, unknown>;
type File = Obj & { organisation: Obj; apis: Obj[]; keys: { session: Obj }[] };

/**
 * The export file of an organisation of `apis` classic APIs and `keys` keys (each on one of
 * them), made by copying the objects of a real export of one API and one key with fresh ids: the
 * shapes and sizes the service writes, without building the organisation request by request
 * (that takes longer than the transfer it is for).
 */
export async function largeOrgFile(ctx: Ctx, orgId: string, n: { apis: number; keys: number }): Promise<File> {
  const seed = await ctx.tenant(`${orgId}-seed`);
  const apiId = `${seed.orgId}-api`;
  const api = await call(ctx.stage.url, 'POST', '/gw/apis', ctx.gw, {
    api_id: apiId,
    name: apiId,
    org_id: seed.orgId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://u.example' },
  });
  if (api.status !== 200) throw new Error(`api ${api.status}`);
  const key = await call(ctx.stage.url, 'POST', '/gw/keys/create', ctx.gw, {
    org_id: seed.orgId,
    access_rights: { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'] } },
  });
  if (key.status !== 200) throw new Error(`key ${key.status}`);
  const exported = await fetch(`${ctx.stage.url}/admin/organisations/${seed.orgId}/export`, { headers: ctx.admin });
  if (exported.status !== 200) throw new Error(`export ${exported.status}`);
  const small = (await exported.text()).replaceAll(seed.orgId, orgId);
  const file = JSON.parse(small) as File & { users: unknown[] };
  const [apiText, keyText] = [JSON.stringify(file.apis[0]), JSON.stringify(file.keys[0])];
  const hash = String(file.keys[0]!.session.key_hash);
  const apiIds = Array.from({ length: n.apis }, (_, i) => `${orgId}-api-${i}`);
  file.apis = apiIds.map((id) => {
    const copy = JSON.parse(apiText.replaceAll(`${orgId}-api`, id)) as Obj;
    return { ...copy, id: randomBytes(12).toString('hex') };
  });
  file.keys = Array.from({ length: n.keys }, (_, i) => {
    const to = apiIds[i % n.apis]!;
    const keyHash = createHash('sha256').update(randomBytes(16)).digest('hex');
    return JSON.parse(keyText.replaceAll(`${orgId}-api`, to).replaceAll(hash, keyHash)) as { session: Obj };
  });
  // The seed's user is not copied: its e-mail is the seed organisation's.
  file.users = [];
  return file;
}
