/**
 * X-Ray traces. The functions run with active tracing (infra/stack.ts): Lambda records each
 * invocation's segment, and once the Tracer is loaded (xray.ts) every AWS SDK client passed to
 * `traced()` (DynamoDB, SQS, Secrets Manager) and every outbound HTTP request is a subsegment.
 *
 * The Tracer brings the X-Ray SDK, which costs more at start than Logger and Metrics together
 * (BENCHMARKS.md, "Powertools"). So no function loads it at start: the first invocation X-Ray
 * samples (`Sampled=1` in the trace header; with the default rule the first request each second
 * and 5 % of the others) loads it before the handler runs and the clients made so far are
 * instrumented then. A cold start X-Ray does not sample, the local stage and the emulator (no
 * sampled header) and `POWERTOOLS_TRACE_ENABLED=false` never load it.
 */
import { isRequestXRaySampled } from '@aws-lambda-powertools/commons/utils/env';
import { errorField, logger } from './logger';

type Capture = <T>(client: T) => T;

/** Clients made before the Tracer was loaded, instrumented when it is. */
const waiting: unknown[] = [];
let capture: Capture | undefined;
let loading: Promise<void> | undefined;

/** The client, its calls traced as subsegments once tracing started (the same object). */
export function traced<T>(client: T): T {
  if (capture) return capture(client);
  waiting.push(client);
  return client;
}

/** Powertools' own switch: tracing is on unless POWERTOOLS_TRACE_ENABLED says false. */
const tracingEnabled = () => process.env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false';

/** Loads the Tracer when this invocation is sampled (once); resolves at once otherwise. */
export function startTracing(): Promise<void> {
  if (!loading && tracingEnabled() && isRequestXRaySampled()) {
    loading = import('./xray').then(
      ({ captureClient }) => {
        capture = captureClient;
        for (const client of waiting.splice(0)) captureClient(client);
      },
      // A trace is not worth a failed request: the invocation goes on untraced.
      (e) => logger.warn('tracer not loaded', { error: errorField(e) }),
    );
  }
  return loading ?? Promise.resolve();
}
