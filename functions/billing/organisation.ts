import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { billingOrganisation } from '../../shared/route-groups/billing';
import { organisationUsage, organisationUsageCsv, thisMonth } from '../../shared/services/usage-report';

/** GET /admin/organisations/{orgID}/usage: one organisation's month, per API and per day, as JSON or CSV. */
export const handler = createHandler(billingOrganisation, async ({ params, query }) => {
  const month = query.month ?? thisMonth();
  return query.format === 'csv'
    ? reply.text(await organisationUsageCsv(params.orgID, month), 'text/csv; charset=utf-8')
    : reply.ok(await organisationUsage(params.orgID, month));
});
