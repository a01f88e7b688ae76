/** A route of the gateway model (shared/domain/gateway-model.ts) for the planners' tests: keyed, one upstream, nothing else asked. */
import type { GatewayRoute } from '../../shared/domain/gateway-model';

export const gatewayRoute = (apiId: string, listenPath: string, extra: Partial<GatewayRoute> = {}): GatewayRoute => ({
  apiId,
  orgId: 'acme',
  listenPath,
  upstreams: [{ scheme: 'http', host: 'up.example', port: 8080, basePath: '/base' }],
  stripListenPath: false,
  preserveHost: false,
  key: { keyless: false, header: 'Authorization' },
  requestHeaders: { add: {}, remove: [] },
  ...extra,
});
