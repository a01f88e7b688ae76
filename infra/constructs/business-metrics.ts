/**
 * What the service does, on the stage's dashboard and alarms (docs/operating/observability.md "Alarms and dashboard"): the
 * business metrics the functions write as EMF lines (shared/observability/: checks allowed and
 * refused by reason, organisation limit refusals, webhook deliveries and their lag, the change
 * feed's record age) beside Lambda's own iterator age of the change feed. Three alarms:
 * - delivery lag: p90 of delivery time minus event time over DELIVERY_LAG_P90_MS for three
 *   5-minute periods (first attempts take seconds; retries wait their schedule, so a p90 past
 *   two minutes means receivers are failing or the attempt queue is behind);
 * - delivery failure ratio: deliveries that failed for good over FAILURE_PERCENT of those finished
 *   in 15 minutes, once at least MIN_FINISHED finished (one failure of three is not a signal);
 * - refusal spike: refused checks over REFUSED_PERCENT of at least MIN_CHECKS checks in 5 minutes,
 *   twice in a row (a gateway sending unknown keys, or quotas set too low), and organisation
 *   limit refusals over ORG_LIMIT_REFUSALS in 5 minutes (one tenant hammering the dashboard).
 * Dimensions are the service and a bounded reason or class: never an organisation.
 */
import { Duration } from 'aws-cdk-lib';
import { GraphWidget, MathExpression, Metric, type Alarm, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { DENIAL_STATUS } from '../../shared/domain/quota';
import { ORG_LIMITS } from '../../shared/limits';
import { METRIC, METRICS_NAMESPACE, SERVICE_NAME } from '../../shared/observability/service';

const BUSINESS_ALARM_THRESHOLDS = {
  DELIVERY_LAG_P90_MS: 120_000,
  FAILURE_PERCENT: 10,
  MIN_FINISHED: 10,
  REFUSED_PERCENT: 50,
  MIN_CHECKS: 100,
  ORG_LIMIT_REFUSALS: 100,
} as const;

/**
 * The values of the check's `reason` dimension the spike alarm sums: every one but a suspended
 * organisation's, whose refusals an installation admin asked for (contract §9), so a suspended
 * tenant that keeps calling pages nobody.
 */
const REFUSAL_REASONS = [...Object.keys(DENIAL_STATUS).filter((r) => r !== 'OrgSuspended'), 'OrgQuotaExceeded'] as const;

const PERIOD = Duration.minutes(5);

const metric = (name: string, statistic: string, dimensions: Record<string, string> = {}, period = PERIOD) =>
  new Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service: SERVICE_NAME, ...dimensions }, statistic, period });

interface BusinessMetricsProps {
  /** Makes one alarm of the stage (monitoring.ts: its name, SNS actions, missing data not breaching). */
  alarm: (id: string, what: string, metric: IMetric, threshold: number, description: string, evaluationPeriods?: number) => Alarm;
  /** The change feed's consumer, whose IteratorAge Lambda reports. */
  changeFeedFunction?: IFunction;
}

/** The business alarms (made) and the dashboard rows that show them. */
export function businessMetrics({ alarm, changeFeedFunction }: BusinessMetricsProps): { alarms: Alarm[]; rows: IWidget[][] } {
  const t = BUSINESS_ALARM_THRESHOLDS;
  const allowed = metric(METRIC.checkAllowed, 'Sum');
  const refusedBy = Object.fromEntries(REFUSAL_REASONS.map((r, i) => [`r${i}`, metric(METRIC.checkRefused, 'Sum', { reason: r }).with({ label: r })]));
  const refused = new MathExpression({
    expression: Object.keys(refusedBy)
      .map((k) => `FILL(${k}, 0)`)
      .join(' + '),
    usingMetrics: refusedBy,
    label: 'refused',
    period: PERIOD,
  });
  const refusedPercent = new MathExpression({
    expression: `IF(allowed + refused >= ${t.MIN_CHECKS}, 100 * refused / (allowed + refused), 0)`,
    usingMetrics: { allowed: allowed.with({ label: 'allowed' }), refused },
    label: 'refused, % of checks',
    period: PERIOD,
  });
  const orgLimitBy = Object.fromEntries(
    Object.keys(ORG_LIMITS).map((c, i) => [`o${i}`, metric(METRIC.orgLimitRefused, 'Sum', { class: c }).with({ label: c })]),
  );
  const orgLimitRefused = new MathExpression({
    expression: Object.keys(orgLimitBy)
      .map((k) => `FILL(${k}, 0)`)
      .join(' + '),
    usingMetrics: orgLimitBy,
    label: 'organisation limit refusals',
    period: PERIOD,
  });

  const fifteen = Duration.minutes(15);
  const delivered = metric(METRIC.deliveryDelivered, 'Sum');
  const failed = metric(METRIC.deliveryFailed, 'Sum');
  const retried = metric(METRIC.deliveryRetried, 'Sum');
  const failurePercent = new MathExpression({
    expression: `IF(d + f >= ${t.MIN_FINISHED}, 100 * f / (d + f), 0)`,
    usingMetrics: { d: metric(METRIC.deliveryDelivered, 'Sum', {}, fifteen), f: metric(METRIC.deliveryFailed, 'Sum', {}, fifteen) },
    label: 'failed for good, % of finished deliveries',
    period: fifteen,
  });
  const lagP90 = metric(METRIC.deliveryLag, 'p90').with({ label: 'delivery lag p90 (ms)' });
  const recordAge = metric(METRIC.changeFeedAge, 'Maximum').with({ label: 'change-feed record age, max (ms)' });

  const alarms = [
    alarm(
      'WebhookDeliveryLag',
      'webhook delivery lag',
      lagP90,
      t.DELIVERY_LAG_P90_MS,
      `p90 of webhook delivery time minus event time (ms) over ${t.DELIVERY_LAG_P90_MS / 1000} s, three 5-minute periods in a row.`,
      3,
    ),
    alarm(
      'WebhookFailureRatio',
      'webhook failure ratio',
      failurePercent,
      t.FAILURE_PERCENT,
      `Webhook deliveries that failed for good, percent of those finished in 15 minutes (at least ${t.MIN_FINISHED}).`,
    ),
    alarm(
      'CheckRefusalSpike',
      'check refusal spike',
      refusedPercent,
      t.REFUSED_PERCENT,
      `Refused checks, percent of at least ${t.MIN_CHECKS} checks in 5 minutes, twice in a row: a gateway sending unknown keys, or limits set too low.`,
      2,
    ),
    alarm(
      'OrgLimitRefusals',
      'organisation limit refusals',
      orgLimitRefused,
      t.ORG_LIMIT_REFUSALS,
      'Dashboard requests refused by a per-organisation limit in 5 minutes (which organisation: the log line "organisation limit refused").',
    ),
  ];

  const rows: IWidget[][] = [];
  rows.push([
    new GraphWidget({
      title: 'Checks allowed and refused',
      left: [allowed.with({ label: 'allowed' }), refused],
      right: [refusedPercent],
      rightAnnotations: [{ value: t.REFUSED_PERCENT, label: 'alarm' }],
      width: 12,
    }),
    new GraphWidget({ title: 'Refused checks by reason (quota, rate, key)', left: Object.values(refusedBy), stacked: true, width: 12 }),
  ]);
  rows.push([
    new GraphWidget({
      title: 'Webhook deliveries',
      left: [delivered.with({ label: 'delivered' }), failed.with({ label: 'failed' }), retried.with({ label: 'retried' })],
      right: [failurePercent],
      rightAnnotations: [{ value: t.FAILURE_PERCENT, label: 'alarm' }],
      width: 8,
    }),
    new GraphWidget({
      title: 'Webhook delivery lag (ms)',
      left: [lagP90, metric(METRIC.deliveryLag, 'p50').with({ label: 'p50' })],
      leftAnnotations: [{ value: t.DELIVERY_LAG_P90_MS, label: 'alarm' }],
      width: 8,
    }),
    new GraphWidget({
      title: 'Change feed age (ms)',
      left: [
        recordAge,
        ...(changeFeedFunction
          ? [changeFeedFunction.metric('IteratorAge', { statistic: 'Maximum', period: PERIOD, label: 'stream iterator age, max (ms)' })]
          : []),
      ],
      width: 8,
    }),
  ]);
  rows.push([new GraphWidget({ title: 'Organisation limit refusals by class', left: Object.values(orgLimitBy), stacked: true, width: 24 })]);
  return { alarms, rows };
}
