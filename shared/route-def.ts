import type { z } from 'zod';

export type Group = 'dashboard' | 'gateway' | 'admin' | 'public';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
  /** false: planned in a later issue; the route is documented but neither served nor deployed. */
  built: boolean;
  summary: string;
  /** Read routes get read-only table permissions in the cloud. */
  access: 'read' | 'write';
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
  /** Path holds an id of an object that If-Match guards. */
  etag?: boolean;
  /**
   * Packages installed beside the bundle instead of bundled into it (cloud only): for packages
   * that read their own files at run time.
   */
  nodeModules?: string[];
}

export function route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  def: RouteDef<P, Q, B>,
): RouteDef<P, Q, B> {
  return def;
}

/**
 * Whether the route's function needs the service key (SERVER_SECRET): Idempotency-Key records
 * and list cursors are keyed with it. Only those functions may read it in the cloud.
 */
export function needsServiceKey(r: Pick<RouteDef, 'idempotent' | 'query'>): boolean {
  const shape = (r.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return Boolean(r.idempotent) || (shape !== undefined && 'cursor' in shape);
}

/** Group of a request path by its prefix; everything else answers in the dashboard envelope. */
export function groupOfPath(path: string): Group {
  if (path.startsWith('/gw/') || path === '/gw') return 'gateway';
  if (path.startsWith('/admin/') || path === '/admin') return 'admin';
  return 'dashboard';
}
