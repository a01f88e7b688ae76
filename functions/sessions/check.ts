import { createHandler } from '../../shared/http/create-handler';
import { DENIAL_STATUS, nowSeconds } from '../../shared/domain/quota';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { checkRequest } from '../../shared/store/session-check';

const MESSAGES = {
  UnknownKey: 'Key not authorised',
  KeyInactive: 'Key is inactive',
  KeyExpired: 'Key has expired',
  AccessDenied: 'Key does not grant this API',
  QuotaExceeded: 'Quota exceeded',
  RateLimitExceeded: 'Rate limit exceeded',
} as const;

/** POST /gw/sessions/check (decisions §10): 200 with the live quota, or 403/429 with the reason. */
export const handler = createHandler(routes.sessionsCheck, async ({ body }) => {
  const result = await checkRequest(body, nowSeconds());
  if (result.allowed) return { body: result };
  return { status: DENIAL_STATUS[result.reason], body: { status: 'error', message: MESSAGES[result.reason], allowed: false, reason: result.reason } };
});
