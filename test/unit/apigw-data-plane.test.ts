/** The reconciler's API Gateway calls: a route another reconcile created meanwhile is set as the plan says, not a failure. */
import { ConflictException } from '@aws-sdk/client-apigatewayv2';
import { describe, expect, it } from 'vitest';
import { sdkDataPlane } from '../../shared/net/apigw-data-plane';

type Sent = { name: string; input: Record<string, unknown> };

/** A client that answers like API Gateway holding one route already (`ANY /demo`). */
function fakeClient(sent: Sent[]) {
  return {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name;
      sent.push({ name, input: command.input });
      if (name === 'CreateRouteCommand') throw new ConflictException({ message: 'Route with key ANY /demo already exists for this API', $metadata: {} });
      if (name === 'GetRoutesCommand') return { Items: [{ RouteId: 'r1', RouteKey: 'ANY /demo', Target: 'integrations/old' }] };
      return {};
    },
  };
}

describe('the reconciler creating a route', () => {
  it('sets the route that another reconcile created meanwhile to what this plan says, and answers its id', async () => {
    const sent: Sent[] = [];
    const plane = sdkDataPlane('api1', fakeClient(sent) as never);
    await expect(plane.createRoute({ RouteKey: 'ANY /demo', Target: 'integrations/new', AuthorizationType: 'NONE' })).resolves.toBe('r1');
    expect(sent.map((s) => s.name)).toEqual(['CreateRouteCommand', 'GetRoutesCommand', 'UpdateRouteCommand']);
    expect(sent[2]!.input).toEqual({ ApiId: 'api1', RouteId: 'r1', RouteKey: 'ANY /demo', Target: 'integrations/new', AuthorizationType: 'NONE' });
  });

  it('lets any other failure through', async () => {
    const plane = sdkDataPlane('api1', { send: async () => Promise.reject(new Error('boom')) } as never);
    await expect(plane.createRoute({ RouteKey: 'ANY /x', Target: 'integrations/x', AuthorizationType: 'NONE' })).rejects.toThrow('boom');
  });
});
