import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { RouteDef } from '../route-def';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../store/idempotency';
import { bodyText, checkContentType } from './body';
import { parseJson } from '../parsing';
import { authenticate, type Principal } from './credentials';
import { errorBody, type Reply } from './envelopes';
import { AppError, BadRequest, Conflict, ResponseTooLarge, Unprocessable } from '../errors';
import { log } from './logger';
import { validateParts } from './validate';
import { LIMITS } from '../limits';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type Headers = Record<string, string | undefined>;
type Result = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string>; body: string };

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The body as text, for routes that parse it themselves. */
  rawBody: string | undefined;
  headers: Headers;
  principal: Principal;
  /** The caller's organisation; only dashboard routes have one. */
  readonly org: string;
  /** Version named by If-Match, when sent. */
  ifMatch: number | undefined;
  requestId: string;
}

/** Per-request state travels on the Lambda context, which middy hands to every step. */
type StatefulContext = Context & { gw: State };

interface State {
  requestId: string;
  principal?: Principal;
  parts?: { params: unknown; query: unknown; body: unknown; rawBody: string | undefined };
  idempotency?: { scope: string; key: string };
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  if (!m) throw new BadRequest('If-Match must be an ETag this service sent, such as "3"');
  return Number(m[1]);
}

function toResult(reply: Reply): Result {
  return {
    statusCode: reply.status ?? 200,
    headers: { 'Content-Type': 'application/json', ...(reply.headers ?? {}) },
    body: JSON.stringify(reply.body ?? null),
  };
}

function errorResult(route: RouteDef, err: unknown, requestId: string): Result {
  if (err instanceof AppError) {
    return toResult({ status: err.status, body: errorBody(route.group, err.message, err.details) });
  }
  log('error', 'unhandled error', {
    requestId,
    route: `${route.method} ${route.path}`,
    error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
  });
  const throttled = err instanceof Error && /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/.test(err.name);
  return throttled
    ? toResult({ status: 503, body: errorBody(route.group, `Storage is busy; retry shortly (request ${requestId})`) })
    : toResult({ status: 500, body: errorBody(route.group, `Internal error (request ${requestId})`) });
}

/**
 * Wraps a route's handler: credential check of its group, body parsing, Zod validation,
 * Idempotency-Key, and one error mapping into the group's envelope. Handlers receive validated
 * input and return a Reply.
 */
export function createHandler<R extends RouteDef>(
  route: R,
  fn: (ctx: HandlerContext<Out<R['params']>, Out<R['query']>, Out<R['body']>>) => Promise<Reply>,
) {
  const core = middy<APIGatewayProxyEventV2, Result, Error, StatefulContext>()
    .use({
      before: async (request) => {
        request.context.gw.principal = await authenticate(route.group, request.event.headers ?? {});
      },
    })
    .use({
      before: async (request) => {
        const e = request.event;
        let rawBody: string | undefined;
        let body: unknown;
        if (route.body || route.bodyKind === 'raw') {
          rawBody = bodyText(e.body, e.isBase64Encoded);
          if (route.bodyKind !== 'raw') {
            checkContentType(route, e.headers?.['content-type']);
            body = parseJson(rawBody);
          }
        }
        request.context.gw.parts = {
          ...validateParts(route, { params: e.pathParameters ?? {}, query: e.queryStringParameters ?? {}, body }),
          rawBody,
        };
      },
    })
    .use({
      before: async (request) => {
        const key = request.event.headers?.['idempotency-key'];
        if (!route.idempotent || key === undefined) return undefined;
        if (!IDEMPOTENCY_KEY.test(key)) throw new BadRequest('Idempotency-Key must be 1-255 visible ASCII characters');
        const state = request.context.gw;
        const p = state.principal!;
        const scope = `${route.method} ${route.path}#${p.group === 'dashboard' ? p.orgId : p.group}`;
        const e = request.event;
        const claim = await claimIdempotencyKey(scope, key, [e.rawPath, e.rawQueryString ?? '', state.parts?.rawBody ?? '']);
        if (claim.kind === 'mismatch') throw new Unprocessable('Idempotency-Key was already used with another request body');
        if (claim.kind === 'in-progress') throw new Conflict('A request with this Idempotency-Key is still in progress');
        if (claim.kind === 'replay') {
          return { ...claim.response, headers: { ...claim.response.headers, 'Idempotent-Replayed': 'true' } };
        }
        state.idempotency = { scope, key };
        return undefined;
      },
      after: async (request) => {
        const idem = request.context.gw.idempotency;
        if (idem && request.response) {
          const { statusCode, headers, body } = request.response;
          await completeIdempotencyKey(idem.scope, idem.key, { statusCode, headers, body });
        }
      },
      onError: async (request) => {
        const idem = request.context.gw.idempotency;
        if (idem) await releaseIdempotencyKey(idem.scope, idem.key).catch(() => undefined);
      },
    })
    .use({
      // Registered last, so it runs first on error: every failure leaves in the group's envelope.
      onError: async (request) => {
        request.response = errorResult(route, request.error, request.context.gw.requestId);
      },
    })
    .handler(async (event, context) => {
      const s = context.gw;
      const principal = s.principal!;
      const parts = s.parts!;
      return toResult(
        await fn({
          params: parts.params as Out<R['params']>,
          query: parts.query as Out<R['query']>,
          body: parts.body as Out<R['body']>,
          rawBody: parts.rawBody,
          headers: event.headers ?? {},
          principal,
          get org() {
            if (principal.group !== 'dashboard') throw new Error(`route ${route.path} has no organisation`);
            return principal.orgId;
          },
          ifMatch: parseIfMatch(event.headers?.['if-match']),
          requestId: s.requestId,
        }),
      );
    });

  return async (event: APIGatewayProxyEventV2, context: Context): Promise<Result> => {
    const started = Date.now();
    const requestId = event.requestContext?.requestId || randomUUID();
    let result: Result;
    try {
      const ctx: StatefulContext = Object.assign(Object.create(context ?? null) as Context, { gw: { requestId } });
      result = await core(event, ctx);
    } catch (err) {
      result = errorResult(route, err, requestId);
    }
    // Responses must fit Lambda's limit. Lists refuse before they build a big answer (see
    // shared/store/apis.ts); this catches whatever else grew too large.
    if (result.body.length > LIMITS.responseBytes) result = errorResult(route, new ResponseTooLarge(), requestId);
    result.headers = {
      ...result.headers,
      'X-Request-Id': requestId,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    };
    // Successful requests log at debug: the cloud's API Gateway access log already has one line
    // per request. Refusals stay at info, where they help a caller's support case.
    log(result.statusCode < 400 ? 'debug' : 'info', 'request', {
      requestId,
      route: `${route.method} ${route.path}`,
      status: result.statusCode,
      ms: Date.now() - started,
    });
    return result;
  };
}
