import type * as z from 'zod';
import { WEBHOOK_LIMITS, type OrgLimitClass } from './limits';
import type { PermissionGroup } from './schemas/permissions';

export type Group = 'dashboard' | 'gateway' | 'admin' | 'developer' | 'public';
/**
 * `ANY` takes every method (API Gateway's ANY): only for a route that answers about another
 * request, whose method it does not choose (the external authorization, which Envoy calls with
 * the original request's method).
 */
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** Table actions that only read. */
export const READ_TABLE_ACTIONS = ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem'] as const;
/** Table actions that write. */
export const WRITE_TABLE_ACTIONS = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'] as const;
/**
 * A DynamoDB action, by its IAM name, that a route's code may send to the table. Scan is not
 * one: lists are Queries.
 */
export type TableAction = (typeof READ_TABLE_ACTIONS)[number] | (typeof WRITE_TABLE_ACTIONS)[number];

/**
 * The statuses a route answers for reasons of its own, each with what it means there. The
 * document adds those every route of its kind answers (shared/openapi/statuses.ts: 400 for a
 * schema, 401, 403 for a permission, 404 for a path id, 412 for If-Match, 413, 415, 429, 500,
 * 503); a meaning given here for one of them comes first in its description.
 */
type Statuses = Partial<Record<400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 429 | 503, string>>;

/** The quota's headers a check answers (docs/using/serving-apis.md). */
export const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/**
 * Headers a success answer carries besides those of every answer: the ETag, a version's base,
 * the quota's rate headers, and what an external authorization hands the gateway to pass upstream.
 */
type SuccessHeader =
  | 'ETag'
  | 'X-Gw-Base-Api-Id'
  | (typeof RATE_HEADERS)[number]
  | 'X-Gw-Api-Id'
  | 'X-Gw-Path'
  | 'X-Gw-Api-Path'
  | 'X-Gw-Key-Hash'
  | 'X-Gw-Org-Id'
  | 'X-Gw-Quota-Remaining'
  | 'Content-Encoding'
  | 'Vary';

type Json = Record<string, unknown>;

/**
 * What the OpenAPI document needs beyond the entry's schemas: rules JSON Schema states that the
 * Zod schemas hold as refinements or transforms, and prose for parameters.
 */
interface RouteDocExtras {
  /** The body's JSON Schema where its Zod schema's cannot say it (a transform that picks between schemas). */
  body?: Json;
  /** JSON Schema the body must also satisfy (a rule the route's service enforces with a 400). */
  bodyRule?: Json;
  /** The whole request body object, for routes that parse their own body (bodyKind 'raw'). */
  requestBody?: Json;
  /** Descriptions of this route's parameters where the shared ones (shared/openapi/parameters.ts) do not fit. */
  params?: Record<string, string>;
  /** The query is the forwarded request's, whatever it holds: documented as one free-form parameter with this meaning. */
  freeQuery?: string;
  /** The model of a status's body where it is not the group's envelope, by its name in components.schemas. */
  models?: Partial<Record<number, string>>;
}

/**
 * What a route group declares of one route: its whole contract. Pure data, so `cdk synth` and the
 * OpenAPI generator never load handler code. The group adds the route's name and handler file
 * (shared/route-builders.ts: routeGroup).
 */
export interface RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: Method;
  path: string;
  group: Group;
  /** What the route does, in one line (the document's summary, the routes table of docs/reference/routes.md). */
  summary: string;
  /** What the document says beyond the summary: the rules JSON Schema cannot state (cross-field, references). */
  description: string;
  /** The 200 answer in a few words ("Webhook created; Meta is its id"). */
  success: string;
  /** Statuses of its own and what each means here (the document, the routes table of the docs and tests read them). */
  statuses?: Statuses;
  /** Headers of the 200 answer beyond those of every answer (ETag: the stored version If-Match repeats). */
  successHeaders?: readonly SuccessHeader[];
  /**
   * A refusal of the check's (403, 429) carries the quota's rate headers when a quota refused, and
   * every 429 Retry-After: the seconds until the refusing window ends.
   */
  refusalHeaders?: boolean;
  /** Read routes change nothing; their tableActions are all read actions. */
  access: 'read' | 'write';
  /**
   * Dashboard routes (required there): the `user_permissions` group the route belongs to. It needs
   * read on it when `access` is read, write when it is write (contract §9). `none`: a read any
   * active user of the organisation may make whatever its permissions (who am I).
   */
  permission?: PermissionGroup | 'none';
  /**
   * The per-organisation limit (shared/limits.ts) the route spends once authorised, when it is not
   * the default: `writes` for every dashboard write, `reads` for every dashboard read. The route
   * builder adds the counter's UpdateItem and entity to what a route that spends one declares.
   */
  orgLimit?: OrgLimitClass;
  /**
   * Every table action this route's code path sends (middleware included: the dashboard
   * credential read, the organisation limit's UpdateItem, Idempotency-Key claim, completion and
   * release), by IAM name, with each item
   * of a transaction counted as its own action as IAM does. The cloud function is granted exactly
   * these; test/after/table-actions.test.ts checks them against what the route's tests send
   * through the local stage. Required on every built route.
   */
  tableActions?: readonly TableAction[];
  /**
   * The stored entities (their `name` in shared/store/*.ts defineEntity) whose items this route's
   * code path reads or writes, middleware included (the caller's access key, the organisation
   * limit's counter, the Idempotency-Key record, deletion records). The cloud function's item
   * grant holds only their partitions (IAM dynamodb:LeadingKeys, infra/constructs/leading-keys.ts);
   * test/after/table-entities.test.ts checks them against the partitions the route's tests touch.
   */
  tableEntities?: readonly string[];
  params?: P;
  query?: Q;
  body?: B;
  /** 'raw': the handler parses the text itself (YAML import, streams media type). */
  bodyKind?: 'json' | 'raw';
  /** Accepted request media types (default application/json; a missing header counts as JSON). */
  contentTypes?: readonly string[];
  /** Success body, for the OpenAPI document and response tests. */
  result: z.ZodType;
  /** The 200 answer has no body at all (an external authorization's allow: only headers). */
  noContent?: boolean;
  /** With `format=csv` in the query the 200 answer is the same figures as text/csv (a spreadsheet's import). */
  csv?: boolean;
  /** Creating POST that honours Idempotency-Key. */
  idempotent?: boolean;
  /**
   * Members of the success body that hold a secret shown once (dot paths, `Meta.access_key`). The
   * reply an Idempotency-Key keeps has them withheld, so a replay never shows a secret again
   * (contract §3).
   */
  secrets?: readonly string[];
  /** Path holds an id of an object that If-Match guards. */
  etag?: boolean;
  /**
   * The route seals or opens something under a key derived from the service key besides
   * Idempotency-Key records and cursors (a webhook's signing secret), so its function reads it.
   */
  serviceKey?: boolean;
  /**
   * The route counts by the viewer's address (shared/http/viewer-address.ts), which a gateway
   * serving a portal on its domain vouches for with its credential: its function reads that secret.
   */
  viewerAddress?: boolean;
  /**
   * Packages installed beside the bundle instead of bundled into it (cloud only): for packages
   * that read their own files at run time.
   */
  nodeModules?: string[];
  /** What only the OpenAPI document reads. */
  doc?: RouteDocExtras;
}

/** One row of the route table: a route as its group declares it, with its name and handler file. */
export interface RouteDef<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> extends RouteSpec<P, Q, B> {
  /** The route's key in the table; the document's operationId. */
  name: string;
  /**
   * Handler file, relative to the project root, derived from the group's folder and the name
   * (`hooksCreate` of hooks: functions/hooks/create.ts); it exports `handler`.
   */
  entry: string;
}

/**
 * Whether the route's function needs the service key (SERVER_SECRET): Idempotency-Key records
 * and list cursors are keyed with it. Only those functions may read it in the cloud.
 */
export function needsServiceKey(r: Pick<RouteDef, 'idempotent' | 'query' | 'serviceKey'>): boolean {
  const shape = (r.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return Boolean(r.idempotent) || Boolean(r.serviceKey) || (shape !== undefined && 'cursor' in shape);
}

/** The group and level a dashboard route needs in the user's `user_permissions` (contract §9). */
export function permissionOf(r: Pick<RouteDef, 'group' | 'permission' | 'access'>): { group: PermissionGroup; level: 'read' | 'write' } | undefined {
  return r.group === 'dashboard' && r.permission && r.permission !== 'none' ? { group: r.permission, level: r.access } : undefined;
}

/** The per-organisation limit a route spends: its own, else `writes` for a dashboard write and `reads` for a dashboard read. */
export function orgLimitOf(r: Pick<RouteDef, 'group' | 'access' | 'orgLimit'>): OrgLimitClass | undefined {
  // Outside the dashboard only a route that names its class spends one (a portal's, per the organisation of its path).
  if (r.group !== 'dashboard') return r.orgLimit;
  return r.orgLimit ?? (r.access === 'write' ? 'writes' : 'reads');
}

/** What reading the caller's organisation standing sends (every dashboard route: shared/services/org-limits.ts). */
export const ORG_STANDING_TABLE_ACCESS = { action: 'GetItem', entity: 'org' } as const;

/** What spending a route's organisation limit sends to the table: one UpdateItem of the window's counter. */
export const ORG_LIMIT_TABLE_ACCESS = { action: 'UpdateItem', entity: 'org_limit' } as const;

/** Group of a request path by its prefix; everything else answers in the dashboard envelope. */
export function groupOfPath(path: string): Group {
  if (path.startsWith('/gw/') || path === '/gw') return 'gateway';
  if (path.startsWith('/admin/') || path === '/admin') return 'admin';
  return 'dashboard';
}

/** Causes several groups' routes answer alike, as parts of a status's meaning. */
export const SHARED_CAUSES = {
  /** Any route that reads a stored definition (docs/reference/limits.md). */
  storedTooLarge: 'a definition this route reads was stored larger than any read decompresses (before the 12 MB limit), named in the message',
  /** Every write of an API definition (contract §11). */
  handlerLimits:
    `event handlers past the fan-out limits (${WEBHOOK_LIMITS.handlersPerApi} webhook handlers per API, ` +
    `${WEBHOOK_LIMITS.hooksPerEvent} webhooks per event), each named`,
  /** A write that names a base API (contract §8). */
  versionNameTaken: "new_version_name already names a version of the base (or the base's own version)",
  badBase: 'base_api_id names no OAS API of the organisation, or the API itself, or new_version_name is missing',
} as const;
