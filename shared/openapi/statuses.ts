/**
 * The statuses an operation answers: derived from its table entry where a rule of the service
 * decides them for every route alike (contract §3), plus the statuses the entry declares.
 */
import { ORG_LIMIT_WINDOW_SECONDS, ORG_LIMITS } from '../limits';
import { orgLimitOf, permissionOf, type RouteDef } from '../route-def';

/** Whether the route reads anything from the request a client could get wrong. */
const takesInput = (r: RouteDef) => Boolean(r.params || r.query || r.body || r.bodyKind === 'raw' || r.etag || r.idempotent);
const takesBody = (r: RouteDef) => Boolean(r.body || r.bodyKind === 'raw');
/** A paged list: its query takes a cursor. */
const isList = (r: RouteDef) => 'cursor' in ((r.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});

const DERIVED: Array<{ status: number; applies: (r: RouteDef) => boolean; when: (r: RouteDef) => string }> = [
  {
    status: 400,
    applies: takesInput,
    when: (r) =>
      [
        takesBody(r) ? 'The body is not JSON (or YAML where taken), or a value breaks the schema' : 'A value breaks the schema',
        'each problem is named by its path (body.method, query.p, params.apiID) in the errors',
        r.etag ? 'an If-Match that is neither * nor a list of ETags of this service' : '',
        isList(r) ? 'a cursor this list did not issue, or a page larger than the 6 MB response limit (ask for a smaller one)' : '',
        r.idempotent ? 'an Idempotency-Key that is not 1-255 visible ASCII characters' : '',
      ]
        .filter(Boolean)
        .join('; '),
  },
  { status: 401, applies: (r) => r.group !== 'public', when: (r) => `The ${CREDENTIAL[r.group]} is missing or not valid` },
  {
    status: 403,
    applies: (r) => Boolean(permissionOf(r)),
    when: (r) => {
      const p = permissionOf(r)!;
      return (
        `The user's user_permissions grant less than ${p.level} on ${p.group} ` +
        `(${p.level === 'read' ? 'read or write' : 'write'} needed; contract §9); the message names both. ` +
        `Nothing is read or written`
      );
    },
  },
  { status: 404, applies: (r) => Boolean(r.params), when: () => 'No such object, or one of another organisation (answered exactly alike)' },
  { status: 409, applies: (r) => Boolean(r.idempotent), when: () => 'A request with this Idempotency-Key is still running' },
  {
    status: 412,
    applies: (r) => Boolean(r.etag),
    when: () => 'If-Match allows no stored version: it lists only other versions (weak tags never match), or it is * and there is no such object',
  },
  {
    status: 413,
    // Every route reads the body before anything else, one that takes none too (contract §3).
    applies: () => true,
    when: (r) =>
      takesBody(r)
        ? 'The body is over 5 MB, or the object it makes is larger than storage holds (the message names which)'
        : 'A body over 5 MB was sent (this route takes none; a smaller one is ignored)',
  },
  { status: 415, applies: takesBody, when: (r) => `A Content-Type other than ${(r.contentTypes ?? ['application/json']).join(', ')}` },
  { status: 422, applies: (r) => Boolean(r.idempotent), when: () => 'The Idempotency-Key was used before with another request' },
  {
    status: 429,
    applies: (r) => Boolean(orgLimitOf(r)),
    when: (r) => {
      const spec = ORG_LIMITS[orgLimitOf(r)!];
      return (
        `The organisation has spent its ${orgLimitOf(r)} limit: ${spec.perWindow} requests per fixed ` +
        `${ORG_LIMIT_WINDOW_SECONDS}-second window by default (${spec.env}); ` +
        'Retry-After names the seconds until the window ends. Only requests that pass the credential, the permission check and validation spend it'
      );
    },
  },
  { status: 500, applies: () => true, when: () => 'An internal failure; the body names only the request id, the log has the rest' },
  { status: 503, applies: () => true, when: () => 'Storage is throttled; retry shortly' },
];

const CREDENTIAL: Record<RouteDef['group'], string> = {
  dashboard: 'Authorization access key (or its user is inactive)',
  gateway: 'X-Gw-Authorization secret',
  admin: 'Admin-Auth secret',
  developer: "developer session of the path's portal (or its developer is no longer active)",
  public: 'credential',
};

/** Status -> when it is answered, ascending; 200 first. */
export function statusesOf(r: RouteDef): Map<number, string> {
  const out = new Map<number, string>([[200, r.success]]);
  const own = (r.statuses ?? {}) as Record<number, string | undefined>;
  for (const d of DERIVED) {
    if (!d.applies(r)) continue;
    const mine = own[d.status];
    out.set(d.status, mine ? `${mine}. ${d.when(r)}` : d.when(r));
  }
  for (const [s, text] of Object.entries(own)) if (text && !out.has(Number(s))) out.set(Number(s), text);
  return new Map([...out].sort(([a], [b]) => a - b));
}
