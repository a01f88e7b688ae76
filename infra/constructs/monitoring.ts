/**
 * Alarms and one dashboard per stage (docs/operating/observability.md "Alarms and dashboard"): every function's errors and
 * throttles, the API's 5xx rate, the p99 latency of POST /gw/sessions/check, the table's
 * throttled requests and system errors, and what the service does (business-metrics.ts). Alarms notify an SNS topic (e-mail from context), both
 * when they fire and when they clear. Thresholds come from the stage settings.
 * A nested stack: two alarms per function would otherwise bring the stage stack close to
 * CloudFormation's 500 resources per stack.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type { HttpApi, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { routes } from '../../shared/routes';
import { stageNames, type StageConfig } from '../config';
import { businessMetrics } from './business-metrics';

const PERIOD = Duration.minutes(5);

/**
 * The table operations the routes send (a transaction is one operation in these metrics);
 * test/after/table-actions.test.ts fails unless this is exactly what the route tests sent.
 */
export const WATCHED_TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

export interface MonitoringProps {
  config: StageConfig;
  api: HttpApi;
  stage: HttpStage;
  table: ITableV2;
  /** Every function of the stage by route name (the fallback included). */
  functions: ReadonlyMap<string, LambdaFunction>;
  /** Queues whose every message is work that failed for good (webhook deliveries): any message alarms. */
  deadLetterQueues?: IQueue[];
}

export class Monitoring extends NestedStack {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: `Alarms and dashboard of ${stageNames(props.config.stage).stack}` });
    const { config, api, stage, table, functions, deadLetterQueues = [] } = props;
    const names = stageNames(config.stage);
    const t = config.alarms;

    this.topic = new Topic(this, 'AlarmTopic', { topicName: names.alarmTopic, displayName: `${names.stack} alarms`, enforceSSL: true });
    if (config.alarmEmail) this.topic.addSubscription(new EmailSubscription(config.alarmEmail));
    const action = new SnsAction(this.topic);

    const alarm = (id: string, what: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1) => {
      const a = new Alarm(this, id, {
        alarmName: names.alarm(what),
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No traffic is not a failure.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };

    const functionAlarms: Alarm[] = [];
    for (const [route, f] of functions) {
      const errors = f.metricErrors({ period: PERIOD, statistic: 'Sum' });
      const throttles = f.metricThrottles({ period: PERIOD, statistic: 'Sum' });
      functionAlarms.push(
        alarm(
          `Errors${route}`,
          `${route} errors`,
          errors,
          t.functionErrors,
          `Function of ${route}: unhandled errors or timeouts (handlers answer every failure themselves, so any is a defect).`,
        ),
        alarm(`Throttles${route}`, `${route} throttles`, throttles, t.functionThrottles, `Function of ${route}: invocations refused for lack of concurrency.`),
      );
    }

    const requests = stage.metricCount({ period: PERIOD, statistic: 'Sum' });
    const serverErrors = stage.metricServerError({ period: PERIOD, statistic: 'Sum' });
    const rate5xx = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      label: '5xx, % of requests',
      period: PERIOD,
    });
    const check = routes.sessionsCheck;
    // Route-level metrics exist because the check's route has detailed metrics on (capacity.ts).
    const checkLatency = new Metric({
      namespace: 'AWS/ApiGateway',
      metricName: 'Latency',
      dimensionsMap: { ApiId: api.apiId, Stage: stage.stageName, Method: check.method, Resource: check.path },
      statistic: 'p99',
      period: PERIOD,
      label: `p99 ${check.method} ${check.path}`,
    });
    const tableThrottles = table.metricThrottledRequestsForOperations({ operations: WATCHED_TABLE_OPERATIONS, period: PERIOD, statistic: 'Sum' });
    const tableErrors = table.metricSystemErrorsForOperations({ operations: WATCHED_TABLE_OPERATIONS, period: PERIOD, statistic: 'Sum' });
    const serviceAlarms = [
      alarm('Api5xxRate', 'API 5xx rate', rate5xx, t.api5xxPercent, 'Share of API answers that are 5xx (percent over 5 minutes).'),
      alarm(
        'CheckP99',
        'check p99 latency',
        checkLatency,
        t.checkP99Ms,
        `p99 latency of ${check.method} ${check.path} (ms), three 5-minute periods in a row.`,
        3,
      ),
      alarm(
        'TableThrottles',
        'table throttled requests',
        tableThrottles,
        t.tableThrottles,
        'Table requests throttled by DynamoDB (clients see 503 and retry).',
      ),
      alarm('TableSystemErrors', 'table system errors', tableErrors, t.tableSystemErrors, 'Table requests that failed inside DynamoDB (HTTP 500).'),
      ...deadLetterQueues.map((q, i) =>
        alarm(
          `DeadLetters${i}`,
          `dead letters ${i}`,
          q.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
          1,
          'Webhook change-feed batches or attempt messages that failed for good (contract §11): read the messages, fix the cause, redeliver.',
        ),
      ),
    ];

    // What the service does (checks, refusals, webhook deliveries): business-metrics.ts.
    const business = businessMetrics({ alarm, changeFeedFunction: functions.get('hookRouting') });
    serviceAlarms.push(...business.alarms);

    const fnMetrics = (m: (f: LambdaFunction) => Metric) => [...functions].map(([route, f]) => m(f).with({ label: route }));
    const checkFn = functions.get('sessionsCheck');
    new Dashboard(this, 'Dashboard', {
      dashboardName: names.dashboard,
      widgets: [
        [
          new TextWidget({
            markdown: `# ${names.stack}\nAlarms notify SNS topic \`${names.alarmTopic}\`. Thresholds: docs/operating/deploy.md "Stages and settings".`,
            width: 24,
            height: 2,
          }),
        ],
        [
          new AlarmStatusWidget({ title: 'Service alarms', alarms: serviceAlarms, width: 8, height: 6 }),
          new AlarmStatusWidget({ title: 'Function alarms', alarms: functionAlarms, width: 16, height: 6 }),
        ],
        [
          new GraphWidget({
            title: 'API requests and 5xx',
            left: [requests.with({ label: 'requests' }), serverErrors.with({ label: '5xx' })],
            right: [rate5xx],
            width: 8,
          }),
          new GraphWidget({
            title: `${check.method} ${check.path} p99 (ms)`,
            left: [checkLatency],
            leftAnnotations: [{ value: t.checkP99Ms, label: 'alarm' }],
            width: 8,
          }),
          new GraphWidget({
            title: 'Check function concurrency',
            left: checkFn ? [checkFn.metric('ConcurrentExecutions', { period: Duration.minutes(1), statistic: 'Maximum', label: 'concurrent' })] : [],
            leftAnnotations: [{ value: config.checkReservedConcurrency, label: 'reserved' }],
            width: 8,
          }),
        ],
        [
          new GraphWidget({ title: 'Function errors', left: fnMetrics((f) => f.metricErrors({ period: PERIOD, statistic: 'Sum' })), width: 12 }),
          new GraphWidget({ title: 'Function throttles', left: fnMetrics((f) => f.metricThrottles({ period: PERIOD, statistic: 'Sum' })), width: 12 }),
        ],
        [
          new GraphWidget({ title: 'Table throttled requests', left: [tableThrottles], width: 12 }),
          new GraphWidget({ title: 'Table system errors', left: [tableErrors], width: 12 }),
        ],
        ...business.rows,
      ],
    });
  }
}
