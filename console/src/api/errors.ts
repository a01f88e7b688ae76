/**
 * The service's answers that are not a success, in the user's words (decisions §3: the error
 * envelope, `Meta.errors[].path` for validation). Field errors are keyed by the path without its
 * `body.` / `query.` prefix, so a form finds `target_path` or `header_map.X-Token` next to its field.
 */
export interface Issue {
  path: string;
  message: string;
}

const SUMMARY: Record<number, string> = {
  0: 'The service could not be reached. Check your connection and try again.',
  400: 'Some values were not accepted. Check the fields marked below.',
  401: 'Your access key was not accepted (it may have been replaced, or your user made inactive). Sign in again.',
  403: 'You do not have permission to do this.',
  404: 'Not found: it may have been deleted, or never existed in your organisation.',
  405: 'The service does not offer this here.',
  409: 'This conflicts with something that already exists.',
  412: 'Someone changed this since you opened it, so your change was not saved.',
  413: 'This is too large for the service (over 5 MB).',
  415: 'The service does not take this kind of content.',
  422: 'Something this refers to does not exist.',
  429: 'Too many requests.',
};

export class ServiceError extends Error {
  readonly issues: Issue[];
  constructor(
    readonly status: number,
    /** The service's own message (the envelope's Message), if any. */
    readonly detail: string | undefined,
    issues: Issue[] = [],
    /** Seconds, from Retry-After (429). */
    readonly retryAfter?: number,
    readonly requestId?: string,
  ) {
    super(detail ?? `HTTP ${status}`);
    this.issues = issues;
  }

  /** One sentence saying what happened. */
  get summary(): string {
    if (this.status === 429)
      return this.retryAfter !== undefined ? `Too many requests. Try again in ${this.retryAfter} second${this.retryAfter === 1 ? '' : 's'}.` : SUMMARY[429]!;
    if (this.status >= 500) return `The service had a problem and nothing was changed. Try again${this.requestId ? ` (request ${this.requestId})` : ''}.`;
    return SUMMARY[this.status] ?? `The service answered ${this.status}.`;
  }

  /** The message for a form field (`target_path`, `header_map.X-Token`), if the service named it. */
  fieldError(field: string): string | undefined {
    return this.issues.find((i) => fieldOf(i.path) === field)?.message;
  }
}

/** `body.header_map.X-Token` -> `header_map.X-Token`; `query.listenPath` -> `listenPath`. */
export const fieldOf = (path: string): string => path.replace(/^(body|query|params|headers)\.?/, '');

const asIssues = (meta: unknown): Issue[] => {
  const errors = meta && typeof meta === 'object' ? (meta as { errors?: unknown }).errors : undefined;
  return Array.isArray(errors) ? errors.filter((e): e is Issue => typeof e?.path === 'string' && typeof e?.message === 'string') : [];
};

/** The error of a response that is not 2xx, from its envelope (dashboard group) if it has one. */
export function errorOf(response: Response, body: unknown): ServiceError {
  const envelope = body && typeof body === 'object' ? (body as { Message?: unknown; Meta?: unknown }) : {};
  const retry = Number(response.headers.get('retry-after'));
  return new ServiceError(
    response.status,
    typeof envelope.Message === 'string' ? envelope.Message : undefined,
    asIssues(envelope.Meta),
    response.headers.has('retry-after') && Number.isFinite(retry) ? Math.max(0, Math.ceil(retry)) : undefined,
    response.headers.get('x-request-id') ?? undefined,
  );
}

export const asServiceError = (e: unknown): ServiceError => (e instanceof ServiceError ? e : new ServiceError(0, e instanceof Error ? e.message : undefined));
