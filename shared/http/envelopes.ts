import type { Group } from '../route-def';
import type { ErrorDetail } from '../errors';

declare const carriesEtag: unique symbol;

/**
 * What a handler answers, made only by `reply` (a handler cannot build one by hand): the
 * finaliser (shared/http/respond.ts) turns it into the HTTP result. `E` says whether it carries
 * the ETag, which createHandler holds to what the route's entry declares (successHeaders).
 */
export interface Reply<E extends boolean = boolean> {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
  /** The body already as JSON text, sent as it is (a document fixed when the function was built). */
  readonly json?: string;
  /** JSON already compressed, as base64 (its Content-Encoding is among the headers): the answer carries the bytes. */
  readonly encodedJson?: string;
  /** A body that is not JSON (a CSV export), with its media type. */
  readonly text?: { body: string; type: string };
  /** No body at all (not even `null`). */
  readonly empty?: true;
  readonly [carriesEtag]: E;
}

interface ReplyOptions<E extends number | undefined> {
  /** The stored version the answer shows: sent as the ETag that If-Match repeats. */
  etag?: E;
  /** Further headers the route declares (X-Gw-Base-Api-Id). */
  headers?: Record<string, string>;
}
/** Whether an answer made with `etag` carries the ETag. */
type Etagged<E> = E extends number ? true : false;

function make<E extends number | undefined>(body: unknown, opts: ReplyOptions<E> = {}, status?: number): Reply<Etagged<E>> {
  const headers = { ...(opts.headers ?? {}), ...(opts.etag !== undefined ? { ETag: `"${opts.etag}"` } : {}) };
  return { ...(status !== undefined ? { status } : {}), body, headers } as unknown as Reply<Etagged<E>>;
}

/** The one way a handler answers (contract §3): every success is one of these. */
export const reply = {
  /** A plain JSON body (a read, a list, a client object); `status` only for an answer that is not 200 yet no error (the health check's 503). */
  ok<E extends number | undefined = undefined>(body: unknown, opts: ReplyOptions<E> & { status?: number } = {}): Reply<Etagged<E>> {
    return make(body, opts, opts.status);
  },
  /**
   * Dashboard and admin success: `{Status: "OK", Message, Meta}`, plus `ID` where the result names
   * an id, and `extra` members a route adds (a secret shown once).
   */
  status<E extends number | undefined = undefined>(
    message: string,
    meta: unknown,
    opts: ReplyOptions<E> & { id?: string; extra?: Record<string, unknown> } = {},
  ): Reply<Etagged<E>> {
    const body = { Status: 'OK', Message: message, Meta: meta, ...(opts.id !== undefined ? { ID: opts.id } : {}), ...(opts.extra ?? {}) };
    return make(body, opts);
  },
  /** A success with nothing in the body, only headers (an external authorization's allow). */
  empty(headers: Record<string, string>): Reply<false> {
    return { body: undefined, headers, empty: true } as unknown as Reply<false>;
  },
  /** A JSON body already serialised: its bytes are the answer. */
  json(text: string, headers: Record<string, string> = {}): Reply<false> {
    return { ...make<undefined>(undefined, { headers }), json: text } as Reply<false>;
  },
  /** A JSON body already compressed: `base64` holds its bytes, `encoding` is their Content-Encoding. */
  encodedJson(base64: string, encoding: string, headers: Record<string, string> = {}): Reply<false> {
    return { ...make<undefined>(undefined, { headers: { ...headers, 'Content-Encoding': encoding } }), encodedJson: base64 } as Reply<false>;
  },
  /** A body that is not JSON, as it is: `type` is its Content-Type. */
  text(body: string, type: string): Reply<false> {
    return { ...make<undefined>(undefined), text: { body, type } } as Reply<false>;
  },
  /** Gateway write result: `{key, status: "ok", action}`, plus `key_hash` for keys. */
  gateway(action: 'added' | 'modified' | 'deleted', key: string, opts: { keyHash?: string } = {}): Reply<false> {
    return make<undefined>({ key, status: 'ok', action, ...(opts.keyHash ? { key_hash: opts.keyHash } : {}) });
  },
};

/**
 * The error envelope of a credential group (contract §3): the gateway's `{status, message,
 * errors?}`, everyone else's `{Status, Message, Meta}`. `fields` are members a refusal adds (the
 * data-plane check's `allowed` and `reason`).
 */
export function errorBody(group: Group, message: string, details?: ErrorDetail[], fields?: Record<string, unknown>): unknown {
  if (group === 'gateway') return { status: 'error', message, ...(details?.length ? { errors: details } : {}), ...(fields ?? {}) };
  return { Status: 'Error', Message: message, Meta: details?.length ? { errors: details } : null, ...(fields ?? {}) };
}
