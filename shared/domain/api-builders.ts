/**
 * Turns gateway writes into stored API records (pure). The organisation and ids come from the
 * definition itself (contract §7); ids the client leaves out are generated.
 */
import type { ApiRecord } from './api-records';
import { newDbId } from '../lib/hashing';
import { newApiId } from './key-ids';
import { oasToClassic } from './oas-classic';

type Json = Record<string, any>;

const DB_ID = /^[0-9a-f]{24}$/;

interface Existing {
  id: string;
  api_id: string;
  created_at: string;
  version: number;
  base_api_id?: string;
  categories: string[];
}

/** An OAS document (with x-gw-api-gateway) as a stored record; fills info.id and info.dbId in. */
export function recordFromOas(doc: Json, now: string, existing?: Existing): ApiRecord {
  const gw = (doc['x-gw-api-gateway'] ?? {}) as Json;
  const info = (gw.info ??= {}) as Json;
  const api_id = existing?.api_id ?? (info.id || newApiId());
  const id = existing?.id ?? (typeof info.dbId === 'string' && DB_ID.test(info.dbId) ? info.dbId : newDbId());
  info.id = api_id;
  info.dbId = id;
  info.orgId ??= '';
  info.name ||= doc.info?.title || api_id;
  const classic = { ...oasToClassic(doc as never), id, api_id, org_id: info.orgId, is_oas: true } as Json;
  return {
    id,
    api_id,
    org_id: String(info.orgId),
    name: String(info.name),
    kind: 'oas',
    classic,
    oas: doc,
    ...(existing?.base_api_id ? { base_api_id: existing.base_api_id } : {}),
    categories: existing?.categories ?? [],
    created_at: existing?.created_at ?? now,
    updated_at: now,
    version: existing ? existing.version + 1 : 1,
  };
}

/** A classic definition as a stored record. */
export function recordFromClassic(def: Json, now: string, existing?: Existing): ApiRecord {
  const api_id = existing?.api_id ?? (def.api_id || newApiId());
  const id = existing?.id ?? (typeof def.id === 'string' && DB_ID.test(def.id) ? def.id : newDbId());
  const classic = { ...def, id, api_id, org_id: def.org_id ?? '', is_oas: false };
  return {
    id,
    api_id,
    org_id: String(classic.org_id),
    name: String(def.name || api_id),
    kind: 'classic',
    classic,
    categories: existing?.categories ?? [],
    created_at: existing?.created_at ?? now,
    updated_at: now,
    version: existing ? existing.version + 1 : 1,
  };
}
