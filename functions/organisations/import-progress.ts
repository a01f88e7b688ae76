import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsImportProgress } from '../../shared/route-groups/organisations';
import { importProgress } from '../../shared/services/import-runs';

/** GET /admin/organisations/{orgID}/import: the background part of its import, and how far it is. */
export const handler = createHandler(organisationsImportProgress, async ({ params }) => {
  const run = await importProgress(params.orgID);
  return reply.status(run.state === 'done' ? 'Organisation imported' : run.state === 'failed' ? 'Import failed' : 'Import under way', run);
});
