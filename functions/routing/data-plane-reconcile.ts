import { observed } from '../../shared/observability/invocation';
import { reconcileConfiguredDataPlane } from '../../shared/services/data-plane';

/**
 * The data-plane reconciler (docs/operating/data-plane.md): run by the table's stream when the
 * routing version moves, and on a schedule that repairs drift. Either way one run applies
 * whatever differs, so a run's event carries nothing it needs.
 */
export const handler = observed('data-plane', async (): Promise<void> => {
  await reconcileConfiguredDataPlane();
});
