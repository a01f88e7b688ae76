/**
 * 404, 405 and 413 answers with X-Request-Id (test/support/edge-answers.ts) against the source
 * stage; the emulated cloud stage runs the same sweep in test/emulator/stage.test.ts. The source
 * stage's server refuses a body over 5 MB before any handler runs, so the handlers' own guard (the
 * one the cloud has) is proven here too, by invoking each write route's handler with the event
 * API Gateway would send.
 */
import { developerSession } from '../support/developer-session';
import { beforeAll, describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { apiGatewayEvent } from '../../infra/local/event';
import { LIMITS } from '../../shared/limits';
import { routeList } from '../../shared/routes';
import { concretePath } from '../support/credential-sweep';
import { describeEdgeAnswers } from '../support/edge-answers';
import { useStage } from '../support/file-stage';
import { ADMIN_SECRET, GW_SECRET } from '../support/table';

const s = useStage();

describeEdgeAnswers('answers made outside the handlers, through npm start', () => s);

describe("each write route's handler refuses a body over 5 MB itself, as the cloud's function must", () => {
  type Handler = (e: APIGatewayProxyEventV2, c: Context) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }>;
  const body = JSON.stringify({ filler: 'x'.repeat(LIMITS.bodyBytes + 1024) });
  let dashKey: string;
  let devKey: string;
  beforeAll(async () => {
    const tenant = await s.tenant();
    dashKey = tenant.key;
    devKey = await developerSession(s, tenant.orgId, dashKey);
  });

  for (const route of routeList.filter((r) => r.access === 'write')) {
    it(`${route.method} ${route.path}`, async () => {
      const credential: Record<string, string> = {
        dashboard: { authorization: `Bearer ${dashKey}` },
        gateway: { 'x-gw-authorization': GW_SECRET },
        admin: { 'admin-auth': ADMIN_SECRET },
        public: {},
        developer: { authorization: `Bearer ${devKey}` },
      }[route.group] as Record<string, string>;
      const path = concretePath(route.path);
      const event = apiGatewayEvent(
        {
          method: route.method,
          url: new URL(path, 'http://local'),
          headers: { ...credential, 'content-type': 'application/json' },
          body,
          sourceIp: '127.0.0.1',
          protocol: 'HTTP/1.1',
        },
        {
          routeKey: `${route.method} ${route.path}`,
          pathParameters: Object.fromEntries(route.path.match(/\{[^}]+\}/g)?.map((p) => [p.slice(1, -1), 'abc123']) ?? []),
        },
      );
      const { handler } = (await import(/* @vite-ignore */ new URL(`../../${route.entry}`, import.meta.url).href)) as { handler: Handler };
      const r = await handler(event, { awsRequestId: event.requestContext.requestId, getRemainingTimeInMillis: () => 29_000 } as Context);
      expect(r.statusCode, r.body.slice(0, 200)).toBe(413);
      expect(r.headers['X-Request-Id']).toBe(event.requestContext.requestId);
    });
  }
});
