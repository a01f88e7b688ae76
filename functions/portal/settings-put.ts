import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalSettingsPut } from '../../shared/route-groups/portal';
import { setPortalSettings } from '../../shared/services/portal';

/** PUT /api/portal/settings: on or off, the sign-up mode, the title, the domain, the hooks. */
export const handler = createHandler(portalSettingsPut, async ({ org, body }) => reply.status('Portal settings stored', await setPortalSettings(org, body)));
