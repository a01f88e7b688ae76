import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { importPolicies } from '../../shared/store/policies';

/** POST /admin/policies/import (spec 10): the schema has validated every policy before any write. */
export const handler = createHandler(routes.policiesImport, async ({ body }) => {
  await importPolicies(body.Data);
  return statusOk('Policies imported', Object.fromEntries(body.Data.map((p) => [p.id, true])));
});
