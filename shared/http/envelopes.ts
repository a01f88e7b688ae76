import type { Group } from '../route-def';
import type { ErrorDetail } from '../errors';

/** What a handler answers: the finaliser (shared/http/respond.ts) turns it into the HTTP result. */
export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Dashboard and admin success (contract §3). */
export function statusOk(message: string, meta: unknown = null, id?: string): Reply {
  return { body: { Status: 'OK', Message: message, Meta: meta, ...(id !== undefined ? { ID: id } : {}) } };
}

/** Gateway write result (contract §3). */
export function gatewayOk(action: 'added' | 'modified' | 'deleted', key: string, keyHash?: string): Reply {
  return { body: { key, status: 'ok', action, ...(keyHash ? { key_hash: keyHash } : {}) } };
}

/** The ETag of a stored version: what If-Match must repeat. */
export const etagOf = (version: number) => ({ ETag: `"${version}"` });

/** A plain JSON body; `version` becomes the ETag. */
export function ok(body: unknown, opts: { version?: number; headers?: Record<string, string> } = {}): Reply {
  return { body, headers: { ...(opts.headers ?? {}), ...(opts.version !== undefined ? etagOf(opts.version) : {}) } };
}

/**
 * The error envelope of a credential group (contract §3): the gateway's `{status, message,
 * errors?}`, everyone else's `{Status, Message, Meta}`. `fields` are members a refusal adds (the
 * data-plane check's `allowed` and `reason`).
 */
export function errorBody(group: Group, message: string, details?: ErrorDetail[], fields?: Record<string, unknown>): unknown {
  if (group === 'gateway') return { status: 'error', message, ...(details?.length ? { errors: details } : {}), ...(fields ?? {}) };
  return { Status: 'Error', Message: message, Meta: details?.length ? { errors: details } : null, ...(fields ?? {}) };
}
