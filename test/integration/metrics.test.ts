/**
 * Business metrics as CloudWatch reads them: the EMF lines (embedded metric format) a check and a
 * webhook delivery write on stdout, with bounded dimensions (a refusal's reason, never an
 * organisation or key id). The check runs through its route's handler, the delivery through the
 * attempt queue's consumer, each on DynamoDB Local.
 */
import type { APIGatewayProxyEventV2, Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

// Metrics are off for the other test files (vitest.config.ts); this one reads them. Set before
// the metrics module is loaded.
vi.hoisted(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});

import { handler as check } from '../../functions/sessions/check';
import { handler as attemptQueue } from '../../functions/hooks/attempt-queue';
import { createClassicApi } from '../../shared/services/apis';
import { pingHook } from '../../shared/services/delivery-log';
import { createHook } from '../../shared/services/hooks';
import { createOrganisation } from '../../shared/services/organisations';
import { createGatewayKey } from '../../shared/services/keys';
import { rightsFor, uid } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/receiver';
import { GW_SECRET, useTestTable } from '../support/table';

interface Emf {
  _aws: { Timestamp: number; CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> };
  [member: string]: unknown;
}

let stdout: string[] = [];
beforeEach(() => {
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    stdout.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
});

/** The EMF documents written since the test began. */
const emfLines = (): Emf[] =>
  stdout
    .map((l) => {
      try {
        return JSON.parse(l) as Emf;
      } catch {
        return undefined;
      }
    })
    .filter((d): d is Emf => d !== undefined && '_aws' in d);

/** Each metric written: its name, dimensions (name=value) and value. */
const metricsOf = (docs: Emf[]) =>
  docs.flatMap((d) =>
    d._aws.CloudWatchMetrics.flatMap((m) =>
      m.Metrics.map((x) => ({
        namespace: m.Namespace,
        name: x.Name,
        unit: x.Unit,
        dimensions: Object.fromEntries(m.Dimensions.flat().map((k) => [k, d[k]])),
        value: d[x.Name],
      })),
    ),
  );

const context = { awsRequestId: 'aws-req', functionName: 'fn', functionVersion: '$LATEST', invokedFunctionArn: 'arn', memoryLimitInMB: '256' } as Context;

function checkEvent(body: unknown): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /gw/sessions/check',
    rawPath: '/gw/sessions/check',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'x-gw-authorization': GW_SECRET },
    requestContext: { requestId: `req-${uid('m')}`, http: { method: 'POST', path: '/gw/sessions/check' } } as APIGatewayProxyEventV2['requestContext'],
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

let receiver: Receiver;
beforeAll(async () => {
  await useTestTable();
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  receiver = await startReceiver();
});
afterAll(async () => {
  delete process.env.ALLOW_PRIVATE_TARGETS;
  await receiver.close();
});

describe('metric lines (EMF)', () => {
  it('a check writes CheckAllowed when allowed and CheckRefused by reason when refused, without ids as dimensions', async () => {
    const org = (await createOrganisation({ owner_name: 'metrics' } as never)).id;
    const apiId = uid('api');
    await createClassicApi({ api_id: apiId, name: 'm', org_id: org, proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' } });
    const { key } = await createGatewayKey({ org_id: org, access_rights: rightsFor(apiId), quota_max: 1, quota_renewal_rate: 3600 } as never);
    stdout = [];

    expect((await check(checkEvent({ key, api_id: apiId }), context)).statusCode).toBe(200);
    expect(metricsOf(emfLines())).toEqual([
      { namespace: 'GwControlPlane', name: 'CheckAllowed', unit: 'Count', dimensions: { service: 'gw-control-plane' }, value: 1 },
    ]);

    stdout = [];
    expect((await check(checkEvent({ key, api_id: apiId }), context)).statusCode).toBe(429);
    expect((await check(checkEvent({ key: 'no-such-key', api_id: apiId }), context)).statusCode).toBe(403);
    const refused = metricsOf(emfLines());
    expect(refused).toEqual([
      { namespace: 'GwControlPlane', name: 'CheckRefused', unit: 'Count', dimensions: { service: 'gw-control-plane', reason: 'QuotaExceeded' }, value: 1 },
      { namespace: 'GwControlPlane', name: 'CheckRefused', unit: 'Count', dimensions: { service: 'gw-control-plane', reason: 'UnknownKey' }, value: 1 },
    ]);
    // Neither the organisation nor the key appears in any metric line.
    expect(stdout.filter((l) => l.includes('_aws')).join('\n')).not.toMatch(new RegExp(`${org}|${key}`));
  });

  it('a delivery writes WebhookDelivered and its lag (delivery time minus event time)', async () => {
    const org = (await createOrganisation({ owner_name: 'hooks' } as never)).id;
    const { hook } = await createHook(org, { name: 'm', method: 'POST', target_path: receiver.url, header_map: {} } as never);
    const before = Date.now();
    const { delivery_id } = await pingHook(org, hook.id);
    stdout = [];
    const message = { org_id: org, hook_id: hook.id, id: delivery_id };
    const out = await attemptQueue({ Records: [{ messageId: 'm1', body: JSON.stringify(message) }] } as SQSEvent, context);
    const after = Date.now();
    expect(out.batchItemFailures).toEqual([]);
    expect(receiver.calls).toHaveLength(1);
    const written = metricsOf(emfLines());
    expect(written.map((m) => [m.name, m.unit, m.dimensions])).toEqual([
      ['WebhookDelivered', 'Count', { service: 'gw-control-plane' }],
      ['WebhookDeliveryLag', 'Milliseconds', { service: 'gw-control-plane' }],
    ]);
    const lag = written.find((m) => m.name === 'WebhookDeliveryLag')!.value as number;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual(after - before);
  });
});

describe('switched off after the module loaded', () => {
  // The local stage sets POWERTOOLS_METRICS_DISABLED in main(), after its imports loaded this
  // module: the setting must still hold, and a refusal must not build a metric object either.
  it('writes no metric line, allowed or refused', async () => {
    vi.resetModules();
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    const fresh = await import('../../shared/observability/metrics');
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    try {
      fresh.count(fresh.METRIC.checkAllowed);
      fresh.countBy(fresh.METRIC.checkRefused, 'reason', 'QuotaExceeded');
      fresh.flushMetrics();
      expect(emfLines()).toEqual([]);
    } finally {
      process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    }
  });
});
