import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalSettingsGet } from '../../shared/route-groups/portal';
import { portalSettings } from '../../shared/services/portal';

/** GET /api/portal/settings: the caller's organisation's portal settings. */
export const handler = createHandler(portalSettingsGet, async ({ org }) => reply.ok(await portalSettings(org)));
