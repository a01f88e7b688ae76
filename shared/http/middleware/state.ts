/**
 * What the middlewares of one request share, on Middy's `request.internal` (a fresh object per
 * request). Each middleware reads what an earlier one wrote and adds its own part.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { StoredPermissions } from '../../domain/permissions';
import type { Developer } from '../../schemas/portal';
import type { IfMatch } from '../../domain/if-match';
import type { Result } from '../respond';

/** Who sends the request, by the credential of its route's group. */
export type Principal =
  | { group: 'dashboard'; orgId: string; userId: string; email?: string; permissions: StoredPermissions }
  | { group: 'gateway' }
  | { group: 'admin' }
  | { group: 'developer'; orgId: string; developer: Developer; token: string }
  | { group: 'public' };

interface ParsedParts {
  params: unknown;
  query: unknown;
  body: unknown;
  /** The body as text, for routes that parse it themselves and for the Idempotency-Key fingerprint. */
  rawBody: string | undefined;
}

export type RequestState = {
  /** Set by auth. */
  principal?: Principal;
  /** Set by parse-and-validate. */
  parts?: ParsedParts;
  /** Set by idempotency when this request claimed its Idempotency-Key. */
  idempotency?: { scope: string; key: string };
  /** Set by handler-input: what If-Match asks, when sent. */
  ifMatch?: IfMatch;
};

export type HttpMiddleware<C extends Context = Context> = middy.MiddlewareObj<APIGatewayProxyEventV2, Result, Error, C, RequestState>;

const generated = new WeakMap<APIGatewayProxyEventV2, string>();

/** The request id API Gateway gave the event (one made up, once per event, when it has none). */
export function requestIdOf(event: APIGatewayProxyEventV2): string {
  const given = event.requestContext?.requestId;
  if (given) return given;
  let id = generated.get(event);
  if (!id) generated.set(event, (id = randomUUID()));
  return id;
}
