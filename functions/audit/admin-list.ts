import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { auditAdminList } from '../../shared/route-groups/audit';
import { listAuditLog } from '../../shared/services/audit';

/** GET /admin/audit-log: every organisation's audit trail (or one's), newest first, paged. */
export const handler = createHandler(auditAdminList, async ({ query }) => reply.ok(await listAuditLog(query)));
