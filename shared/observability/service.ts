/**
 * Names the functions write and the stack reads (infra/constructs/business-metrics.ts): the
 * `service` every log line, metric and trace carries, the CloudWatch namespace of the business
 * metrics and their names. Plain data, so the CDK app reads them without loading Powertools.
 */
export const SERVICE_NAME = 'gw-control-plane';
export const METRICS_NAMESPACE = 'GwControlPlane';

export const METRIC = {
  checkAllowed: 'CheckAllowed',
  /** Dimension `reason`: a DenialReason, or OrgQuotaExceeded when the organisation's quota refused. */
  checkRefused: 'CheckRefused',
  /** Dimension `class`: the organisation limit's class (reads, writes, hookTest). */
  orgLimitRefused: 'OrgLimitRefused',
  deliveryDelivered: 'WebhookDelivered',
  deliveryFailed: 'WebhookFailed',
  deliveryRetried: 'WebhookRetried',
  /** Delivery time minus the event's time, ms. */
  deliveryLag: 'WebhookDeliveryLag',
  /** Now minus a change-feed record's creation time, ms (the stream's iterator age). */
  changeFeedAge: 'ChangeFeedRecordAge',
} as const;
