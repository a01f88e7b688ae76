/** The `service` every log line, metric and trace carries; metrics go to this CloudWatch namespace. */
export const SERVICE_NAME = 'gw-control-plane';
export const METRICS_NAMESPACE = 'GwControlPlane';
