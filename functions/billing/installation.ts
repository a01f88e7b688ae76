import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { billingInstallation } from '../../shared/route-groups/billing';
import { installationUsage, installationUsageCsv, thisMonth } from '../../shared/services/usage-report';

/** GET /admin/usage: every organisation's usage for a month, as JSON or CSV. */
export const handler = createHandler(billingInstallation, async ({ query }) => {
  const month = query.month ?? thisMonth();
  return query.format === 'csv' ? reply.text(await installationUsageCsv(month), 'text/csv; charset=utf-8') : reply.ok(await installationUsage(month));
});
