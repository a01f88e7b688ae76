import type { Group } from '../route-def';
import type { ErrorDetail } from '../errors';

export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Dashboard and admin success (decisions §3). */
export function statusOk(message: string, meta: unknown = null, id?: string): Reply {
  return { body: { Status: 'OK', Message: message, Meta: meta, ...(id !== undefined ? { ID: id } : {}) } };
}

/** Gateway write result (decisions §3). */
export function gatewayOk(action: 'added' | 'modified' | 'deleted', key: string, keyHash?: string): Reply {
  return { body: { key, status: 'ok', action, ...(keyHash ? { key_hash: keyHash } : {}) } };
}

/** The ETag of a stored version: what If-Match must repeat. */
export const etagOf = (version: number) => ({ ETag: `"${version}"` });

/** A plain JSON body; `version` becomes the ETag. */
export function ok(body: unknown, opts: { version?: number; headers?: Record<string, string> } = {}): Reply {
  return { body, headers: { ...(opts.headers ?? {}), ...(opts.version !== undefined ? etagOf(opts.version) : {}) } };
}

export function errorBody(group: Group, message: string, details?: ErrorDetail[]): unknown {
  if (group === 'gateway') return { status: 'error', message, ...(details?.length ? { errors: details } : {}) };
  return { Status: 'Error', Message: message, Meta: details?.length ? { errors: details } : null };
}
