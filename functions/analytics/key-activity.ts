import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { serviceKey } from '../../shared/secrets';
import { activityRange, aggregateActivity, pageRows } from '../../shared/domain/analytics';
import { pageRequest } from '../../shared/domain/paging';
import { analyticsRoutes as routes } from '../../shared/route-groups/analytics';
import { readKeyCounters } from '../../shared/store/analytics';
import { getKeySession } from '../../shared/store/gw-keys';

/** GET /api/activity/keys/{keyHash}/... (spec 11): 400 bad dates or over 366 days; 404 unknown key or another organisation's. */
export const handler = createHandler(routes.keyActivity, async ({ org, params, query }) => {
  const range = activityRange(params);
  const key = await getKeySession(params.keyHash);
  if (!key || key.org_id !== org) throw new NotFound(`key ${params.keyHash} not found`);
  const rows = aggregateActivity(params.keyHash, await readKeyCounters(params.keyHash, range));
  return ok(pageRows(rows, pageRequest(query), `${params.keyHash}/${range.from}/${range.to}`, await serviceKey('cursor')));
});
