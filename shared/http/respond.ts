/**
 * The one response finaliser. Every answer of the service leaves through here, whichever code
 * made it (a route's handler, the 404/405 fallback, the local server's 413 and 500), so all carry
 * the same headers (contract §3: X-Request-Id, Cache-Control: no-store, nosniff) and every error
 * the envelope of its credential group.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { AppError, isStorageFault, isThrottling, Refusal, ResponseTooLarge, TooManyRequests } from '../errors';
import { LIMITS } from '../limits';
import type { Group } from '../route-def';
import { errorBody, type Reply } from './envelopes';
import { logger } from '../observability/logger';

export type Result = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string>; body: string };

/** A handler's reply (or an error's answer) as JSON. */
export function jsonResult(reply: Pick<Reply, 'status' | 'body' | 'headers' | 'empty' | 'json' | 'text' | 'encodedJson'>): Result {
  if (reply.empty) return { statusCode: reply.status ?? 200, headers: { ...(reply.headers ?? {}) }, body: '' };
  if (reply.encodedJson !== undefined) {
    const headers = { 'Content-Type': 'application/json', ...(reply.headers ?? {}) };
    return { statusCode: reply.status ?? 200, headers, body: reply.encodedJson, isBase64Encoded: true };
  }
  if (reply.text) return { statusCode: reply.status ?? 200, headers: { 'Content-Type': reply.text.type, ...(reply.headers ?? {}) }, body: reply.text.body };
  return {
    statusCode: reply.status ?? 200,
    headers: { 'Content-Type': 'application/json', ...(reply.headers ?? {}) },
    body: reply.json ?? JSON.stringify(reply.body ?? null),
  };
}

/**
 * Any failure as the group's envelope. A layer-neutral error keeps its status and message;
 * anything else is logged (the invocation's keys name the request) and answered 500 (503 when storage throttled or failed on its side)
 * without internals.
 */
export function errorResult(group: Group, err: unknown, requestId: string): Result {
  if (err instanceof AppError) {
    return jsonResult({
      status: err.status,
      body: errorBody(group, err.message, err.details, err instanceof Refusal ? err.fields : undefined),
      ...(err instanceof TooManyRequests ? { headers: { 'Retry-After': String(err.retryAfterSeconds) } } : {}),
      ...(err instanceof Refusal ? { headers: err.headers } : {}),
    });
  }
  // The invocation's keys (request id, route) are on the line already; the error's stack too.
  logger.error('unhandled error', err instanceof Error ? err : String(err));
  if (isThrottling(err) || isStorageFault(err))
    return jsonResult({ status: 503, body: errorBody(group, `Storage is busy; retry shortly (request ${requestId})`) });
  // Out of time before the function's own timeout (Middy's early response): the service is
  // overloaded (a throttled hot key's retries), not broken; a retry with the same Idempotency-Key
  // is safe, so the answer is the same 503 as a busy table, not a 500.
  if (isOutOfTime(err)) {
    return jsonResult({
      status: 503,
      body: errorBody(group, `The request ran out of time; retry shortly (request ${requestId})`),
      headers: { 'Retry-After': '1' },
    });
  }
  return jsonResult({ status: 500, body: errorBody(group, `Internal error (request ${requestId})`) });
}

/** Middy's timeoutEarlyResponse: a TimeoutError caused by @middy/core. */
function isOutOfTime(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError' && (err.cause as { package?: string } | undefined)?.package === '@middy/core';
}

/**
 * The last step of every answer: an answer over Lambda's response limit becomes the 400 that
 * asks for pages (lists refuse before they build one; this catches whatever else grew too
 * large), and the headers every answer carries are set.
 */
export function finalise(result: Result, group: Group, requestId: string = randomUUID()): Result {
  const sized = result.body.length > LIMITS.responseBytes ? errorResult(group, new ResponseTooLarge(), requestId) : result;
  return {
    ...sized,
    headers: { ...sized.headers, 'X-Request-Id': requestId, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
  };
}
