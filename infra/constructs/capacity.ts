/**
 * Capacity for the data plane (docs/operating/deploy.md "Stages and settings"): per-route throttles on the HTTP API
 * stage, so admin, dashboard and portal writes stay low while POST /gw/sessions/check may run high, and
 * concurrency reserved for the check's function, so no other function can take its executions.
 */
import type { CfnStage, HttpRoute, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { routeList, type RouteName } from '../../shared/routes';
import type { StageConfig } from '../config';

/** The data-plane check: the route whose capacity the rest must never eat. */
const CHECK_ROUTE: RouteName = 'sessionsCheck';

export interface CapacityProps {
  config: StageConfig;
  stage: HttpStage;
  routes: ReadonlyMap<string, HttpRoute>;
  functions: ReadonlyMap<string, LambdaFunction>;
}

export class Capacity extends Construct {
  constructor(scope: Construct, id: string, props: CapacityProps) {
    super(scope, id);
    const { config, stage, routes, functions } = props;
    // Raw CloudFormation (the L1 property is untyped JSON): PascalCase keys, by route key.
    const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number; DetailedMetricsEnabled?: boolean }> = {};
    for (const r of routeList) {
      const key = `${r.method} ${r.path}`;
      if (r.name === CHECK_ROUTE) {
        // Detailed metrics give the check its own latency figures (alarm and dashboard).
        settings[key] = { ThrottlingRateLimit: config.throttle.check.rate, ThrottlingBurstLimit: config.throttle.check.burst, DetailedMetricsEnabled: true };
      } else if (r.access === 'write' && r.group !== 'gateway') {
        // Every write but the gateway's: a developer portal's sign-up and sign-in (each an scrypt hash) among them.
        settings[key] = { ThrottlingRateLimit: config.throttle.writes.rate, ThrottlingBurstLimit: config.throttle.writes.burst };
      }
    }
    (stage.node.defaultChild as CfnStage).routeSettings = settings;
    // Route settings name routes by key: the stage must be created after them.
    for (const r of routes.values()) stage.node.addDependency(r);

    const check = functions.get(CHECK_ROUTE);
    if (!check) throw new Error(`no function for ${CHECK_ROUTE}`);
    (check.node.defaultChild as CfnFunction).reservedConcurrentExecutions = config.checkReservedConcurrency;
  }
}
