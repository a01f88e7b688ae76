import type { z } from 'zod';
import type { OrgLimitClass } from './limits';
import type { PermissionGroup } from './schemas/permissions';

export type Group = 'dashboard' | 'gateway' | 'admin' | 'public';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
 * One row of the route table. Pure data: `entry` names the handler file as a string so that
 * `cdk synth` and the OpenAPI generator never load handler code.
 */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: Method;
  path: string;
  group: Group;
  /** Handler file, relative to the project root; it exports `handler`. */
  entry: string;
  summary: string;
  /** Read routes change nothing; their tableActions are all read actions. */
  access: 'read' | 'write';
  /**
   * Dashboard routes (required there): the `user_permissions` group the route belongs to. It needs
   * read on it when `access` is read, write when it is write (contract §9).
   */
  permission?: PermissionGroup;
  /**
   * The per-organisation limit (shared/limits.ts) the route spends once authorised, when it is not
   * the default: `writes` for every dashboard write; reads spend none. A route that spends one
   * declares UpdateItem (the counter's).
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
  params?: P;
  query?: Q;
  body?: B;
  /** 'raw': the handler parses the text itself (YAML import, streams media type). */
  bodyKind?: 'json' | 'raw';
  /** Accepted request media types (default application/json; a missing header counts as JSON). */
  contentTypes?: readonly string[];
  /** Success body, for the OpenAPI document and response tests. */
  result: z.ZodType;
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
   * Packages installed beside the bundle instead of bundled into it (cloud only): for packages
   * that read their own files at run time.
   */
  nodeModules?: string[];
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
  return r.group === 'dashboard' && r.permission ? { group: r.permission, level: r.access } : undefined;
}

/** The per-organisation limit a route spends: its own, else `writes` for a dashboard write. */
export function orgLimitOf(r: Pick<RouteDef, 'group' | 'access' | 'orgLimit'>): OrgLimitClass | undefined {
  if (r.group !== 'dashboard' || r.access !== 'write') return undefined;
  return r.orgLimit ?? 'writes';
}

/** Group of a request path by its prefix; everything else answers in the dashboard envelope. */
export function groupOfPath(path: string): Group {
  if (path.startsWith('/gw/') || path === '/gw') return 'gateway';
  if (path.startsWith('/admin/') || path === '/admin') return 'admin';
  return 'dashboard';
}
