/**
 * createHandler: a route's handler wrapped in named Middy middlewares, after the edge check
 * (shared/http/origin-verify.ts: with ORIGIN_VERIFY set, a request that did not come through
 * CloudFront is 403 before anything else), in this order:
 *   auth               the credential of the route's group (401)
 *   permission         a dashboard user's user_permissions reach the route's group and level (403)
 *   parse-and-validate the body (413, 415, 400) and the route's schemas (400)
 *   org-limit          a dashboard write spends its organisation's limit (429 with Retry-After)
 *   idempotency        Idempotency-Key claims, replays and releases
 *   handler-input      the validated input, handed to the handler
 *   error-envelope     every failure in the group's envelope (its onError runs first)
 * They share their state on `request.internal`; the answer then passes the one response
 * finaliser (shared/http/respond.ts). Handlers receive validated input, typed by their route (the
 * caller's organisation only on dashboard routes), and return a Reply (shared/http/envelopes.ts:
 * reply), which carries the ETag exactly when the route's entry declares it.
 */
import { viewerAddressOf } from './viewer-address';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import { parseIfMatch, type IfMatch } from '../domain/if-match';
import { Unauthorized } from '../errors';
import type { RouteSpec } from '../route-def';
import type { Developer } from '../schemas/portal';
import type { Reply } from './envelopes';
import { invoke } from '../observability/invocation';
import { logger } from '../observability/logger';
import { edgeRefusal } from './origin-verify';
import { auth } from './middleware/auth';
import { errorEnvelope } from './middleware/error-envelope';
import { idempotency } from './middleware/idempotency';
import { orgLimit } from './middleware/org-limit';
import { parseAndValidate } from './middleware/parse-and-validate';
import { permission } from './middleware/permission';
import { requestIdOf, type HttpMiddleware, type Principal, type RequestState } from './middleware/state';
import { errorResult, finalise, jsonResult, type Result } from './respond';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
type Headers = Record<string, string | undefined>;

interface RequestInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The body as text, for routes that parse it themselves. */
  rawBody: string | undefined;
  headers: Headers;
  /** The request's method and query text as sent: for a route that answers about another request (the external authorization). */
  method: string;
  rawQuery: string;
  /** The viewer's address (viewer-address.ts: a portal's sign-in counts attempts by it). */
  sourceIp: string;
  principal: Principal;
  /** What If-Match asks of the stored version, when sent (contract §3). */
  ifMatch: IfMatch | undefined;
  requestId: string;
}

/** What a route's handler receives: its validated input, and on a dashboard route the caller's organisation. */
type HandlerContext<R extends RouteSpec> = RequestInput<Out<R['params']>, Out<R['query']>, Out<R['body']>> &
  (R extends { group: 'dashboard' } ? { readonly org: string } : unknown) &
  (R extends { group: 'developer' } ? { readonly developer: Developer; readonly token: string } : unknown);

/** Whether the route's success answer carries the ETag (its entry's successHeaders). */
type AnswersEtag<R> = R extends { successHeaders: readonly (infer H)[] } ? ('ETag' extends H ? true : false) : false;

/**
 * Middy hands a handler only the event and the context, so the last `before` step puts the
 * finished input there (as Middy's own setToContext options do). Lambda, the local server and
 * the emulator each make a new context per invocation.
 */
type InputContext = Context & { handlerInput?: RequestInput<unknown, unknown, unknown> & { org?: string; developer?: Developer; token?: string } };

const handlerInput = (route: RouteSpec): HttpMiddleware<InputContext> => ({
  name: 'handler-input',
  before: async (request) => {
    const principal = request.internal.principal!;
    const parts = request.internal.parts!;
    // A developer session reaches only its own organisation's portal: another's path is a 401 like a bad token.
    if (principal.group === 'developer' && (parts.params as { orgID?: string } | undefined)?.orgID !== principal.orgId) {
      throw new Unauthorized('session not valid');
    }
    const headers = request.event.headers ?? {};
    const sourceIp = request.event.requestContext?.http?.sourceIp ?? '';
    request.context.handlerInput = {
      params: parts.params,
      query: parts.query,
      body: parts.body,
      rawBody: parts.rawBody,
      headers,
      method: request.event.requestContext?.http?.method ?? 'GET',
      rawQuery: request.event.rawQueryString ?? '',
      sourceIp: route.viewerAddress ? await viewerAddressOf(headers, sourceIp) : sourceIp,
      principal,
      ...(principal.group === 'dashboard' ? { org: principal.orgId } : {}),
      ...(principal.group === 'developer' ? { developer: principal.developer, token: principal.token } : {}),
      ifMatch: (request.internal.ifMatch = parseIfMatch(headers['if-match'])),
      requestId: requestIdOf(request.event),
    };
  },
});

export function createHandler<R extends RouteSpec>(route: R, fn: (ctx: HandlerContext<R>) => Promise<Reply<AnswersEtag<R>>>) {
  const label = `${route.method} ${route.path}`;
  const core = middy<APIGatewayProxyEventV2, Result, Error, InputContext, RequestState>()
    .use(auth(route))
    .use(permission(route))
    .use(parseAndValidate(route))
    .use(orgLimit(route))
    .use(idempotency(route))
    .use(handlerInput(route))
    .use(errorEnvelope(route))
    .handler(async (_event, context) => jsonResult(await underWay(() => fn(context.handlerInput as HandlerContext<R>))));

  // One work per invocation: its request id and route are on every line any layer logs while it
  // runs, and the store stamps its request id and actor on the items it writes.
  return (event: APIGatewayProxyEventV2, context: Context): Promise<Result> => {
    const started = Date.now();
    const requestId = requestIdOf(event);
    return invoke({ requestId, route: label }, context, () => serve(event, context, requestId, started));
  };

  async function serve(event: APIGatewayProxyEventV2, context: Context, requestId: string, started: number): Promise<Result> {
    let result: Result;
    try {
      result = edgeRefusal(event.headers, route.group, requestId) ?? (await core(event, context as InputContext));
    } catch (err) {
      // Only a middleware's own failure while handling an error gets here.
      result = errorResult(route.group, err, requestId);
    }
    result = finalise(result, route.group, requestId);
    // Successful requests log at debug: the cloud's API Gateway access log already has one line
    // per request. Refusals stay at info, where they help a caller's support case.
    logger[result.statusCode < 400 ? 'debug' : 'info']('request', { status: result.statusCode, ms: Date.now() - started });
    return result;
  }
}

/**
 * Handlers running in this process, answered or not. When an invocation runs out of time, Middy
 * answers 503 and the handler's work goes on behind the answer (its writes may still land, as in
 * a Lambda container until it is frozen): the local stage waits for it before it stops its
 * storage, and a test waits for it before it reads what that work may still write.
 */
let running = 0;
const whenDone: Array<() => void> = [];

async function underWay<T>(work: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await work();
  } finally {
    if (--running === 0) for (const done of whenDone.splice(0)) done();
  }
}

/** Resolves once no handler of this process is running: at once when none is. */
export function handlersDone(): Promise<void> {
  return running === 0 ? Promise.resolve() : new Promise((resolve) => whenDone.push(resolve));
}
