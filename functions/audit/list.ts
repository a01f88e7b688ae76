import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { auditList } from '../../shared/route-groups/audit';
import { listOrgAuditLog } from '../../shared/services/audit';

/** GET /api/audit-log: the caller's organisation's audit trail, newest first, paged. */
export const handler = createHandler(auditList, async ({ org, query, principal }) =>
  reply.ok(await listOrgAuditLog(org, query, principal.group === 'dashboard' ? principal.permissions : undefined)),
);
