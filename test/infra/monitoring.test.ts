/**
 * Alarms and dashboard of each stage: every function's errors and throttles, the API's 5xx rate,
 * the check's p99 latency and the table's throttles and system errors, each with its metric,
 * threshold and the SNS topic as alarm and OK action; one dashboard showing the same figures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STAGES, type StageName } from '../../infra/config';
import { routeList } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

type T = ReturnType<typeof templateOf>;

/** The monitoring nested stack's template, and the stage template that passes it the functions. */
function monitoringOf(context: Record<string, unknown>): T & { functionIdOf(route: string): string } {
  const { stack } = stageStack(context);
  const parent = templateOf(stack);
  const t = templateOf(stack.monitoring);
  const [, nested] = parent.resources('AWS::CloudFormation::Stack')[0]!;
  return {
    ...t,
    // Alarms name functions through the nested stack's parameters: back to the stage's function.
    functionIdOf(route: string) {
      const fnId = parent.resources('AWS::Lambda::Function').find(([, f]) => f.Properties.Environment.Variables.ROUTE_NAME === route)![0];
      const param = Object.entries(nested.Properties.Parameters as Record<string, { Ref: string }>).find(([, v]) => v.Ref === fnId)![0];
      return param;
    },
  };
}

const synthesized = new Map<StageName, ReturnType<typeof monitoringOf>>();
beforeAll(() => {
  for (const stage of STAGES) synthesized.set(stage, monitoringOf({ stage }));
}, 180_000);

const alarmNamed = (t: T, name: string) => {
  const hit = t.resources('AWS::CloudWatch::Alarm').find(([, a]) => a.Properties.AlarmName === name);
  if (!hit) throw new Error(`no alarm "${name}"`);
  return hit[1].Properties;
};
const topicRef = (t: T) => ({ Ref: t.resources('AWS::SNS::Topic')[0]![0] });
const dimensions = (m: any) => Object.fromEntries(m.MetricStat.Metric.Dimensions.map((d: any) => [d.Name, d.Value]));

describe.each(STAGES)('stage %s', (stage) => {
  const t = () => synthesized.get(stage)!;
  const name = (what: string) => `gw-management-${stage} ${what}`;

  it('alarms on every function: errors >= 1 and throttles >= 1 in 5 minutes, to the topic', () => {
    const fns = [...routeList.map((r) => r.name), 'fallback', 'hookRouting', 'hookAttempts', 'auditTrail', 'usageCount', 'offboarding', 'import'];
    for (const route of fns) {
      const fnId = t().functionIdOf(route);
      for (const [what, metric] of [
        ['errors', 'Errors'],
        ['throttles', 'Throttles'],
      ] as const) {
        const a = alarmNamed(t(), name(`${route} ${what}`));
        expect(a).toMatchObject({
          Namespace: 'AWS/Lambda',
          MetricName: metric,
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
          Statistic: 'Sum',
          Period: 300,
          Threshold: 1,
          EvaluationPeriods: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
          AlarmActions: [topicRef(t())],
          OKActions: [topicRef(t())],
        });
      }
    }
    // The service alarms: 5xx rate, check p99, table throttles and errors, webhook dead letters;
    // the business ones: delivery lag, delivery failure ratio, check refusal spike, organisation limit refusals.
    expect(t().resources('AWS::CloudWatch::Alarm')).toHaveLength(fns.length * 2 + 5 + 4);
  });

  it('alarms on the API 5xx rate: >= 1 % of requests over 5 minutes', () => {
    const a = alarmNamed(t(), name('API 5xx rate'));
    expect(a).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, AlarmActions: [topicRef(t())], OKActions: [topicRef(t())] });
    const [expr, ...inputs] = a.Metrics;
    expect(expr.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    const byId = Object.fromEntries(inputs.map((m: any) => [m.Id, m.MetricStat]));
    expect(byId.requests).toMatchObject({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count' }, Stat: 'Sum', Period: 300 });
    expect(byId.errors).toMatchObject({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx' }, Stat: 'Sum', Period: 300 });
    expect(dimensions(inputs[0])).toMatchObject({ Stage: '$default' });
  });

  it('alarms on the p99 latency of POST /gw/sessions/check: >= 500 ms three periods in a row', () => {
    const a = alarmNamed(t(), name('check p99 latency'));
    expect(a).toMatchObject({ Threshold: 500, EvaluationPeriods: 3, AlarmActions: [topicRef(t())] });
    const [m] = a.Metrics;
    expect(m.MetricStat).toMatchObject({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Latency' }, Stat: 'p99', Period: 300 });
    expect(dimensions(m)).toMatchObject({ Stage: '$default', Method: 'POST', Resource: '/gw/sessions/check' });
  });

  it('alarms on table throttled requests and system errors, summed over the operations the routes send', () => {
    for (const [what, metric] of [
      ['table throttled requests', 'ThrottledRequests'],
      ['table system errors', 'SystemErrors'],
    ] as const) {
      const a = alarmNamed(t(), name(what));
      expect(a).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, AlarmActions: [topicRef(t())] });
      const inputs = a.Metrics.filter((m: any) => m.MetricStat);
      expect(inputs.map((m: any) => dimensions(m).Operation).sort()).toEqual([
        'BatchGetItem',
        'DeleteItem',
        'GetItem',
        'PutItem',
        'Query',
        'TransactWriteItems',
        'UpdateItem',
      ]);
      for (const m of inputs) expect(m.MetricStat).toMatchObject({ Metric: { Namespace: 'AWS/DynamoDB', MetricName: metric }, Stat: 'Sum', Period: 300 });
    }
  });

  it('alarms on webhook delivery lag: p90 >= 120 s three 5-minute periods in a row, from the EMF metric', () => {
    const a = alarmNamed(t(), name('webhook delivery lag'));
    expect(a).toMatchObject({
      Metrics: [
        {
          MetricStat: {
            Metric: { Namespace: 'GwControlPlane', MetricName: 'WebhookDeliveryLag', Dimensions: [{ Name: 'service', Value: 'gw-control-plane' }] },
            Stat: 'p90',
            Period: 300,
          },
        },
      ],
      Threshold: 120_000,
      EvaluationPeriods: 3,
      AlarmActions: [topicRef(t())],
      OKActions: [topicRef(t())],
    });
  });

  it('alarms on the webhook failure ratio: >= 10 % of at least 10 finished deliveries in 15 minutes', () => {
    const a = alarmNamed(t(), name('webhook failure ratio'));
    expect(a).toMatchObject({ Threshold: 10, EvaluationPeriods: 1, AlarmActions: [topicRef(t())] });
    const [expr, ...inputs] = a.Metrics;
    expect(expr.Expression).toBe('IF(d + f >= 10, 100 * f / (d + f), 0)');
    const byId = Object.fromEntries(inputs.map((m: any) => [m.Id, m.MetricStat]));
    expect(byId.d).toMatchObject({ Metric: { Namespace: 'GwControlPlane', MetricName: 'WebhookDelivered' }, Stat: 'Sum', Period: 900 });
    expect(byId.f).toMatchObject({ Metric: { Namespace: 'GwControlPlane', MetricName: 'WebhookFailed' }, Stat: 'Sum', Period: 900 });
  });

  it('alarms on a check refusal spike (>= 50 % of at least 100 checks, twice) summed over every reason, and on organisation limit refusals', () => {
    const a = alarmNamed(t(), name('check refusal spike'));
    expect(a).toMatchObject({ Threshold: 50, EvaluationPeriods: 2, AlarmActions: [topicRef(t())] });
    const refusals = a.Metrics.filter((m: any) => m.MetricStat?.Metric.MetricName === 'CheckRefused');
    expect(refusals.map((m: any) => dimensions(m).reason).sort()).toEqual([
      'AccessDenied',
      'KeyExpired',
      'KeyInactive',
      'OrgQuotaExceeded',
      'QuotaExceeded',
      'RateLimitExceeded',
      'UnknownKey',
    ]);
    expect(a.Metrics.find((m: any) => m.MetricStat?.Metric.MetricName === 'CheckAllowed')).toBeDefined();
    const o = alarmNamed(t(), name('organisation limit refusals'));
    expect(o).toMatchObject({ Threshold: 100, EvaluationPeriods: 1 });
    expect(
      o.Metrics.filter((m: any) => m.MetricStat)
        .map((m: any) => dimensions(m).class)
        .sort(),
    ).toEqual(['hookTest', 'portal', 'reads', 'writes']);
    // Bounded dimensions only: no business metric is split by organisation.
    const all = t()
      .resources('AWS::CloudWatch::Alarm')
      .flatMap(([, x]) => x.Properties.Metrics ?? []);
    for (const m of all.filter((m: any) => m.MetricStat?.Metric.Namespace === 'GwControlPlane')) {
      expect(Object.keys(dimensions(m)).every((d) => ['service', 'reason', 'class'].includes(d))).toBe(true);
    }
  });

  it('has one dashboard with the same figures', () => {
    const [, d] = t().resources('AWS::CloudWatch::Dashboard')[0]!;
    const body = JSON.stringify(d.Properties.DashboardBody);
    const business = [
      'CheckAllowed',
      'CheckRefused',
      'OrgLimitRefused',
      'WebhookDelivered',
      'WebhookFailed',
      'WebhookRetried',
      'WebhookDeliveryLag',
      'ChangeFeedRecordAge',
      'IteratorAge',
    ];
    for (const needle of [
      'Errors',
      'Throttles',
      '5xx',
      'Latency',
      '/gw/sessions/check',
      'ThrottledRequests',
      'SystemErrors',
      'ConcurrentExecutions',
      ...business,
    ]) {
      expect(body, needle).toContain(needle);
    }
    // Every alarm shows in an alarm status widget.
    for (const [id] of t().resources('AWS::CloudWatch::Alarm')) expect(body, id).toContain(id);
  });

  it('sends to the topic over TLS only and subscribes no one without alarmEmail', () => {
    t().template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: [{ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }] },
    });
    t().template.resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('monitoring settings from context', () => {
  it('subscribe the alarm e-mail and take every threshold from -c values', () => {
    const t = monitoringOf({
      stage: 'dev',
      alarmEmail: 'ops@example.com',
      alarmFunctionErrors: '3',
      alarmFunctionThrottles: '4',
      alarm5xxPercent: '2.5',
      alarmCheckP99Ms: '800',
      alarmTableThrottles: '6',
      alarmTableSystemErrors: '7',
    });
    t.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    expect(alarmNamed(t, 'gw-management-dev sessionsCheck errors').Threshold).toBe(3);
    expect(alarmNamed(t, 'gw-management-dev sessionsCheck throttles').Threshold).toBe(4);
    expect(alarmNamed(t, 'gw-management-dev API 5xx rate').Threshold).toBe(2.5);
    expect(alarmNamed(t, 'gw-management-dev check p99 latency').Threshold).toBe(800);
    expect(alarmNamed(t, 'gw-management-dev table throttled requests').Threshold).toBe(6);
    expect(alarmNamed(t, 'gw-management-dev table system errors').Threshold).toBe(7);
  }, 120_000);
});
