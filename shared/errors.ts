/**
 * Layer-neutral errors: domain code, stores and services throw these, and know nothing of HTTP.
 * Each carries the status a client sees; the error middleware of shared/http/ maps it to the
 * envelope of the route's credential group (contract §3). Nothing else decides a status code.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, message, details);
  }
}
/** An answer over Lambda's response limit (docs/reference/limits.md); the caller is told to page. */
export class ResponseTooLarge extends BadRequest {
  constructor() {
    super('The result is larger than the 6 MB response limit; ask for it in pages (p, page_size or cursor)');
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'Authorisation failed') {
    super(401, message);
  }
}
/** A dashboard user whose `user_permissions` do not reach the level a route needs (contract §9). */
export class Forbidden extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
/** A known path with another method (the fallback route answers it, with Allow). */
export class MethodNotAllowed extends AppError {
  constructor(message: string) {
    super(405, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(409, message, details);
  }
}
/**
 * An id unique across the installation (so gateways can route by it) that another object holds.
 * The answer says only that the id is taken: never whose, nor that an object of that id exists,
 * since another organisation's object answers 404 to the caller's reads (contract §2).
 */
export class IdTaken extends Conflict {
  constructor(member: string) {
    super(`that ${member} is taken`);
  }
}
/**
 * A (custom domain, listen path) another API already claims (contract §7). The dashboard routes
 * that take a `listenPath` flag say so in its message (contract §8).
 */
export class ListenPathTaken extends Conflict {}
export class PreconditionFailed extends AppError {
  constructor(message = 'The object has changed since the version given in If-Match') {
    super(412, message);
  }
}
export class PayloadTooLarge extends AppError {
  constructor(message = 'Request body is larger than 5 MB') {
    super(413, message);
  }
}
export class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}
export class Unprocessable extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(422, message, details);
  }
}
/** A per-organisation limit is spent (docs/reference/limits.md); answered with `Retry-After`. */
export class TooManyRequests extends AppError {
  constructor(
    message: string,
    /** Whole seconds until the limit's window ends. */
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

/**
 * A refusal that is an answer, not a failure: the data-plane check's 403 and 429 (contract §10),
 * and the external authorization's 400 for a path upstreams read in different ways (§13),
 * whose envelope also carries `fields` (`allowed: false` and the `reason`), and `headers` (the
 * rate headers, Retry-After on a 429).
 */
export class Refusal extends AppError {
  constructor(
    status: 400 | 401 | 403 | 404 | 429,
    message: string,
    readonly fields: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, message);
  }
}

/**
 * Whether an error is DynamoDB (or the SDK) refusing for throughput: the error middleware answers
 * it as 503 with Retry-After, and the check spends on another shard of a hot counter instead.
 */
export function isThrottling(e: unknown): boolean {
  return e instanceof Error && /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/.test(e.name);
}

/**
 * Whether an error is the storage failing on its own side after the SDK's retries (a 5xx of
 * DynamoDB: InternalServerError, ServiceUnavailable; DynamoDB Local's lock timeout under load is
 * one): the service is not broken and a retry may succeed, so it is answered as a busy table is.
 */
export function isStorageFault(e: unknown): boolean {
  const sdk = e as { $fault?: unknown; $metadata?: unknown } | null;
  return e instanceof Error && sdk?.$fault === 'server' && sdk.$metadata !== undefined;
}
