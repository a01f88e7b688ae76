import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesImport } from '../../shared/route-groups/policies';
import { importPolicies } from '../../shared/services/policies';

/** POST /admin/policies/import: the schema has validated every policy before any write. */
export const handler = createHandler(policiesImport, async ({ body }) => {
  await importPolicies(body.Data);
  return reply.status('Policies imported', Object.fromEntries(body.Data.map((p) => [p.id, true])));
});
