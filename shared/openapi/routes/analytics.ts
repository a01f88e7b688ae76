import type { analyticsRoutes } from '../../route-groups/analytics';
import type { GroupDocs } from '../route-doc';

export const analyticsDocs: GroupDocs<typeof analyticsRoutes> = {
  analyticsIngest: {
    description:
      'Records are added to hourly per-key counters by atomic updates. success counts codes below 400, error 400 and above. ' +
      'Timestamps are ISO 8601 (UTC offset allowed).',
    success: 'Records counted: stored, unknown_keys and counters written',
    answers: { 422: 'The batch_id came before with other records' },
  },
  keyActivity: {
    description: 'The days must exist and the end must not be before the start (400); whole days start..end, at most 366.',
    success: 'A page of activity rows',
    answers: { 400: 'A date that does not exist, an end before the start, or more than 366 days', 404: "No such key in the caller's organisation" },
  },
};
