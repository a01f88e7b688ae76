/**
 * Business metrics in CloudWatch's embedded metric format (AWS Powertools for TypeScript's
 * Metrics): lines on stdout that CloudWatch Logs turns into metrics, so the request path makes no
 * API call for them. Dimensions have bounded values (a refusal's reason, a limit's class), never
 * an organisation or key id: those go in the log line beside the metric.
 * Each metric is written once per invocation (invocation.ts flushes them); a metric with a
 * dimension of its own is one line of its own.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC, METRICS_NAMESPACE, SERVICE_NAME } from './service';

export { METRIC };

let metrics: Metrics | null | undefined;

/**
 * The process's metrics, made on first use rather than at import: a process that switches them off
 * in its start-up (the local stage's main(), after this module is loaded) is heard. Off
 * (POWERTOOLS_METRICS_DISABLED=true): null, and nothing is built or stored per call.
 */
function sink(): Metrics | null {
  if (metrics === undefined) {
    metrics = process.env.POWERTOOLS_METRICS_DISABLED === 'true' ? null : new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  }
  return metrics;
}

/** One more of a count, in this invocation's metrics. */
export function count(name: (typeof METRIC)[keyof typeof METRIC]): void {
  sink()?.addMetric(name, MetricUnit.Count, 1);
}

/** One more of a count under one dimension of bounded values (its own EMF line). */
export function countBy(name: (typeof METRIC)[keyof typeof METRIC], dimension: string, value: string): void {
  const m = sink()?.singleMetric();
  m?.addDimension(dimension, value);
  m?.addMetric(name, MetricUnit.Count, 1);
}

/** A duration in milliseconds (delivery lag, record age). */
export function milliseconds(name: (typeof METRIC)[keyof typeof METRIC], ms: number): void {
  sink()?.addMetric(name, MetricUnit.Milliseconds, Math.max(0, ms));
}

/** Writes what this invocation stored (nothing when it stored nothing). */
export function flushMetrics(): void {
  const m = sink();
  if (m?.hasStoredMetrics()) m.publishStoredMetrics();
}
