import type { sessionsRoutes } from '../../route-groups/sessions';
import type { GroupDocs } from '../route-doc';

export const sessionsDocs: GroupDocs<typeof sessionsRoutes> = {
  sessionsCheck: {
    description:
      "What a gateway asks for each request (contract §10). One unit of the key's quota (and of its organisation's) is spent " +
      'atomically; a window renews lazily, exactly once, after quota_renews. Under any concurrency exactly quota_max requests are ' +
      'allowed per window. A refusal is an answer, not an error: 403 or 429 with the reason.',
    success: 'Allowed: one unit was spent; quota_remaining and quota_renews of the key (-1: unlimited)',
    answers: {
      403: 'Refused: reason UnknownKey, KeyInactive, KeyExpired or AccessDenied',
      429: 'Refused: reason QuotaExceeded or RateLimitExceeded (rate requests per per seconds, fixed window)',
    },
    models: { 403: 'CheckRefusal', 429: 'CheckRefusal' },
  },
};
