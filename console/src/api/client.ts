/**
 * The console's one client: openapi-fetch over the generated paths, on the page's own origin (the
 * service and the console share it, so no CORS), with the signed-in access key on every request,
 * and on the admin side the admin credential on /admin/ routes only.
 * `call` turns an answer into its data (and ETag) or a ServiceError; a 401 also ends the session.
 */
import createClient from 'openapi-fetch';
import { adminSecret } from '../session/admin-storage';
import { accessKey } from '../session/storage';
import { errorOf, ServiceError } from './errors';
import type { Paths } from './paths';

export const api = createClient<Paths>({ baseUrl: '' });

api.use({
  onRequest({ request }) {
    const admin = new URL(request.url).pathname.startsWith('/admin/') ? adminSecret() : null;
    const key = accessKey();
    if (admin) request.headers.set('Admin-Auth', admin);
    else if (key) request.headers.set('Authorization', `Bearer ${key}`);
    return request;
  },
});

let unauthorized: (e: ServiceError) => void = () => undefined;
/** The app signs out when any call answers 401 (the key was rotated, or the user made inactive). */
export const onUnauthorized = (handler: (e: ServiceError) => void): void => {
  unauthorized = handler;
};

type Result = { data?: unknown; error?: unknown; response: Response };

export interface Reply<T> {
  data: T;
  /** The object's version for If-Match, on single-object reads and writes. */
  etag: string | undefined;
  response: Response;
}

export async function call<R extends Result>(request: Promise<R>): Promise<Reply<NonNullable<R['data']>>> {
  let r: R;
  try {
    r = await request;
  } catch (e) {
    throw new ServiceError(0, e instanceof Error ? e.message : undefined);
  }
  if (!r.response.ok) {
    const err = errorOf(r.response, r.error);
    if (err.status === 401) unauthorized(err);
    throw err;
  }
  return { data: r.data as NonNullable<R['data']>, etag: r.response.headers.get('etag') ?? undefined, response: r.response };
}

/** The data alone. */
export const get = async <R extends Result>(request: Promise<R>): Promise<NonNullable<R['data']>> => (await call(request)).data;
