import { routeList } from '../routes';
import { groupOfPath } from '../route-def';
import { MethodNotAllowed, NotFound } from '../errors';
import { errorResult, finalise, type Result } from './respond';

/** Matches a concrete path against a template such as /gw/apis/{apiID}; answers its parameters. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i]!;
    const val = p[i]!;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (val === '') return undefined;
      let decoded: string;
      try {
        decoded = decodeURIComponent(val);
      } catch {
        decoded = val;
      }
      params[seg.slice(1, -1)] = decoded;
    } else if (seg !== val) return undefined;
  }
  return params;
}

/** 404 for an unknown path, 405 for a known path with another method, in the prefix's envelope. */
export function fallbackResponse(method: string, path: string, requestId?: string): Result {
  const known = routeList.filter((r) => matchPath(r.path, path));
  const group = groupOfPath(path);
  const allowed = [...new Set(known.map((r) => r.method))];
  const status = allowed.length ? 405 : 404;
  const message = allowed.length ? `Method ${method} is not allowed here; use ${allowed.join(', ')}` : `No route ${method} ${path}`;
  const reply = errorResult(group, status === 405 ? new MethodNotAllowed(message) : new NotFound(message), '');
  return finalise({ ...reply, headers: { ...reply.headers, ...(allowed.length ? { Allow: allowed.join(', ') } : {}) } }, group, requestId);
}
