import { config } from '../../shared/config';
import { sdkDataPlane } from '../../shared/net/apigw-data-plane';
import { observed } from '../../shared/observability/invocation';
import { reconcileDataPlane } from '../../shared/services/data-plane';

/**
 * The data-plane reconciler (docs/operating/data-plane.md): run by the table's stream when the
 * routing version moves, and on a schedule that repairs drift. Either way one run applies
 * whatever differs, so a run's event carries nothing it needs.
 */
export const handler = observed('data-plane', async (): Promise<void> => {
  const { apiId, authorizerId, gatewayId } = config().dataPlane;
  if (!apiId || !authorizerId) throw new Error('DATA_PLANE_API_ID and DATA_PLANE_AUTHORIZER_ID must be set');
  await reconcileDataPlane(sdkDataPlane(apiId), { gatewayId, host: '', authorizerId });
});
