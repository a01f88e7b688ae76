/**
 * The runtime inside one emulated Lambda container. Lambda's Node (not the tools' Node) runs it
 * with the function's environment only: it loads the bundle from the task root once (INIT), then
 * answers the emulator's invocations over IPC one at a time, as Lambda's Node runtime does.
 * Only Node built-ins here: nothing of the project is importable inside the container.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface InvokeMessage {
  type: 'invoke';
  requestId: string;
  functionArn: string;
  event: unknown;
  /** Epoch milliseconds when the function's timeout ends. */
  deadline: number;
  traceId: string;
}

export interface LambdaError {
  errorType: string;
  errorMessage: string;
  stack?: string[];
}

export type WorkerMessage =
  | { type: 'ready'; node: string; cpuMs: number }
  | ({ type: 'init-error' } & LambdaError)
  | { type: 'result'; requestId: string; result: unknown; rss: number; handlerMs: number }
  | ({ type: 'error'; requestId: string; rss: number } & LambdaError)
  | ({ type: 'crash' } & LambdaError);

type Handler = (event: unknown, context: Record<string, unknown>) => unknown;

const env = process.env;
const send = (m: WorkerMessage) => process.send!(m);

function lambdaError(e: unknown, fallbackType: string): LambdaError {
  const err = e instanceof Error ? e : new Error(String(e));
  return { errorType: err.name || fallbackType, errorMessage: err.message, stack: err.stack?.split('\n') };
}

/** `index.handler` -> module `index` in the task root (.js, .mjs, .cjs, as Lambda tries them), export `handler`. */
async function loadHandler(taskRoot: string, spec: string): Promise<Handler> {
  const slash = spec.lastIndexOf('/');
  const dir = join(taskRoot, spec.slice(0, slash + 1));
  const rest = spec.slice(slash + 1);
  const dot = rest.indexOf('.');
  if (dot <= 0) throw Object.assign(new Error(`Bad handler ${spec}: expected module.function`), { name: 'Runtime.MalformedHandlerName' });
  const moduleName = rest.slice(0, dot);
  const file = ['.js', '.mjs', '.cjs'].map((ext) => join(dir, moduleName + ext)).find((f) => existsSync(f));
  if (!file) throw Object.assign(new Error(`Cannot find module '${moduleName}'`), { name: 'Runtime.ImportModuleError' });
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err instanceof SyntaxError) throw Object.assign(new Error(`${err.name}: ${err.message}`), { name: 'Runtime.UserCodeSyntaxError', stack: err.stack });
    if (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'MODULE_NOT_FOUND') {
      throw Object.assign(new Error(`${err.name}: ${err.message}`), { name: 'Runtime.ImportModuleError', stack: err.stack });
    }
    throw e;
  }
  let fn: unknown = mod;
  for (const part of rest.slice(dot + 1).split('.')) fn = (fn as Record<string, unknown> | undefined)?.[part];
  if (typeof fn !== 'function') throw Object.assign(new Error(`${spec} is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
  return fn as Handler;
}

function context(m: InvokeMessage): Record<string, unknown> {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: m.functionArn,
    memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: m.requestId,
    logGroupName: env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => Math.max(0, m.deadline - Date.now()),
  };
}

async function main() {
  const taskRoot = env.LAMBDA_TASK_ROOT!;
  let handler: Handler;
  try {
    handler = await loadHandler(taskRoot, env._HANDLER!);
  } catch (e) {
    send({ type: 'init-error', ...lambdaError(e, 'Runtime.UnknownError') });
    return;
  }
  // Lambda's runtime turns a late failure into a failed invocation and a fresh container.
  const crash = (e: unknown, type: string) => {
    send({ type: 'crash', ...lambdaError(e, type) });
    process.exit(129);
  };
  process.on('uncaughtException', (e) => crash(e, 'Runtime.UncaughtException'));
  process.on('unhandledRejection', (e) => crash(e, 'Runtime.UnhandledPromiseRejection'));
  process.on('message', async (m: InvokeMessage) => {
    if (m.type !== 'invoke') return;
    env._X_AMZN_TRACE_ID = m.traceId;
    try {
      const started = performance.now();
      const result = await handler(m.event, context(m));
      const handlerMs = performance.now() - started;
      send({ type: 'result', requestId: m.requestId, result: result === undefined ? null : result, rss: process.memoryUsage.rss(), handlerMs });
    } catch (e) {
      send({ type: 'error', requestId: m.requestId, rss: process.memoryUsage.rss(), ...lambdaError(e, 'Error') });
    }
  });
  const cpu = process.cpuUsage();
  send({ type: 'ready', node: process.version, cpuMs: (cpu.user + cpu.system) / 1000 });
}

// The emulator going away ends the container.
process.on('disconnect', () => process.exit(0));
void main();
