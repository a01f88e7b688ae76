/**
 * Lambda containers on this machine: each function's bundle runs in its own worker processes on
 * Lambda's Node, with the function's environment only. A container is started on demand (cold,
 * its INIT timed from process start to handler ready), kept warm between invocations, handles one
 * invocation at a time, and is killed when the template's timeout passes or it crashes. Every
 * invocation ends with a REPORT line like Lambda's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { EmulatedFunction } from './template';
import type { InvokeMessage, LambdaError, WorkerMessage } from './worker';

export type Outcome =
  | { ok: true; result: unknown; durationMs: number; initMs?: number; initCpuMs?: number; handlerMs?: number }
  | { ok: false; phase: 'init' | 'invoke'; error: LambdaError; durationMs: number; initMs?: number };

export interface RuntimeOptions {
  node: string;
  workerScript: string;
  /** Lambda's own variables plus the local endpoints; the template's environment comes first. */
  lambdaEnvironment(fn: EmulatedFunction): Record<string, string>;
  /** The ARN invocations name (context.invokedFunctionArn). */
  functionArn: string;
  log(line: string): void;
  /** Containers per function at most; further invocations wait (default 4). */
  concurrency?: number;
  /** A warm container idle this long is stopped (default 10 minutes). */
  idleMs?: number;
  /** Lambda gives up on an INIT after 10 seconds. */
  initTimeoutMs?: number;
}

/** Lambda's response payload limit for synchronous invocations. */
const RESPONSE_LIMIT = 6 * 1024 * 1024;

const ms = (n: number) => n.toFixed(2);

class Container {
  readonly child: ChildProcess;
  readonly spawnedAt = performance.now();
  busy = false;
  /** Set until the first invocation reports it, like Lambda's REPORT line. */
  initMs?: number;
  maxRss = 0;
  idleTimer?: NodeJS.Timeout;
  private waiting?: { resolve: (m: WorkerMessage) => void };

  constructor(fn: EmulatedFunction, opts: RuntimeOptions, onExit: (c: Container) => void) {
    this.child = fork(opts.workerScript, [], {
      execPath: opts.node,
      execArgv: [`--max-old-space-size=${Math.floor(fn.memoryMb * 0.9)}`],
      cwd: fn.codeDir,
      env: { ...fn.environment, ...opts.lambdaEnvironment(fn) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => opts.log(`${fn.name}\t${line}`));
    }
    this.child.on('message', (m: WorkerMessage) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.resolve(m);
    });
    // A Node binary that cannot start is an INIT failure of this container, not of the emulator.
    this.child.on('error', (e) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.resolve({ type: 'crash', errorType: 'Runtime.ExitError', errorMessage: `Runtime could not start: ${e.message}` });
    });
    this.child.on('exit', (code, signal) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.resolve({
        type: 'crash',
        errorType: 'Runtime.ExitError',
        errorMessage: `Runtime exited with error: ${signal ? `signal ${signal}` : `exit status ${code}`}`,
      });
      onExit(this);
    });
  }

  /** The next message from the worker, or a timeout marker. */
  next(timeoutMs: number): Promise<WorkerMessage | 'timeout'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve('timeout');
      }, timeoutMs);
      this.waiting = {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
    });
  }

  send(m: InvokeMessage): void {
    this.child.send(m);
  }

  kill(): void {
    clearTimeout(this.idleTimer);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
}

/** One function's containers. */
export class FunctionRuntime {
  private containers = new Set<Container>();
  private queue: Array<() => void> = [];
  private readonly concurrency: number;
  private readonly idleMs: number;
  private readonly initTimeoutMs: number;
  /** Process start to handler ready of every cold start, and the CPU time it took, for the benchmarks. */
  readonly inits: number[] = [];
  readonly initCpu: number[] = [];

  constructor(
    readonly fn: EmulatedFunction,
    private readonly opts: RuntimeOptions,
  ) {
    this.concurrency = opts.concurrency ?? 4;
    this.idleMs = opts.idleMs ?? 600_000;
    this.initTimeoutMs = opts.initTimeoutMs ?? 10_000;
  }

  private report(requestId: string, c: Container | undefined, durationMs: number, extra = ''): void {
    const init = c?.initMs !== undefined ? ` Init Duration: ${ms(c.initMs)} ms` : '';
    if (c) c.initMs = undefined;
    this.opts.log(
      `REPORT ${this.fn.name} RequestId: ${requestId} Duration: ${ms(durationMs)} ms Billed Duration: ${Math.ceil(durationMs)} ms ` +
        `Memory Size: ${this.fn.memoryMb} MB Max Memory Used: ${Math.round((c?.maxRss ?? 0) / 2 ** 20)} MB${init}${extra}`,
    );
  }

  /** A warm container, or a new one once its INIT is done; or the INIT's error. */
  private async acquire(): Promise<{ c: Container } | { error: LambdaError; initMs: number }> {
    for (;;) {
      const idle = [...this.containers].find((c) => !c.busy && c.alive);
      if (idle) {
        clearTimeout(idle.idleTimer);
        idle.busy = true;
        return { c: idle };
      }
      if (this.containers.size < this.concurrency) break;
      await new Promise<void>((r) => this.queue.push(r));
    }
    if (!this.fn.codeDir) return { error: { errorType: 'Runtime.ImportModuleError', errorMessage: this.fn.codeProblem ?? 'no code' }, initMs: 0 };
    const c = new Container(this.fn, this.opts, (dead) => {
      this.containers.delete(dead);
      this.wake();
    });
    c.busy = true;
    this.containers.add(c);
    const first = await c.next(this.initTimeoutMs);
    const initMs = performance.now() - c.spawnedAt;
    if (first !== 'timeout' && first.type === 'ready') {
      c.initMs = initMs;
      this.inits.push(initMs);
      this.initCpu.push(first.cpuMs);
      return { c };
    }
    c.kill();
    this.containers.delete(c);
    this.wake();
    const error: LambdaError =
      first === 'timeout'
        ? { errorType: 'Runtime.InitTimeout', errorMessage: `INIT did not finish within ${this.initTimeoutMs / 1000} seconds` }
        : first.type === 'init-error' || first.type === 'crash'
          ? { errorType: first.errorType, errorMessage: first.errorMessage, stack: first.stack }
          : { errorType: 'Runtime.Unknown', errorMessage: `unexpected ${first.type} during INIT` };
    this.opts.log(
      `INIT_REPORT ${this.fn.name} Init Duration: ${ms(initMs)} ms Phase: init Status: ` +
        `${first === 'timeout' ? 'timeout' : 'error'} Error Type: ${error.errorType}`,
    );
    this.opts.log(`ERROR ${this.fn.name} ${JSON.stringify({ errorType: error.errorType, errorMessage: error.errorMessage })}`);
    return { error, initMs };
  }

  private wake(): void {
    this.queue.shift()?.();
  }

  private release(c: Container): void {
    c.busy = false;
    c.idleTimer = setTimeout(() => c.kill(), this.idleMs);
    c.idleTimer.unref();
    this.wake();
  }

  async invoke(event: unknown, requestId = randomUUID()): Promise<Outcome> {
    const got = await this.acquire();
    if ('error' in got) return { ok: false, phase: 'init', error: got.error, durationMs: 0, initMs: got.initMs };
    const c = got.c;
    const initMs = c.initMs;
    const timeoutMs = this.fn.timeoutSeconds * 1000;
    const started = performance.now();
    c.send({
      type: 'invoke',
      requestId,
      functionArn: this.opts.functionArn,
      event,
      deadline: Date.now() + timeoutMs,
      traceId: `Root=1-${Date.now().toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    });
    const m = await c.next(timeoutMs);
    const durationMs = performance.now() - started;
    if (m === 'timeout') {
      this.opts.log(`${this.fn.name} RequestId: ${requestId} Task timed out after ${this.fn.timeoutSeconds.toFixed(2)} seconds`);
      c.kill();
      this.report(requestId, c, durationMs, ' Status: timeout');
      return {
        ok: false,
        phase: 'invoke',
        error: { errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${this.fn.timeoutSeconds.toFixed(2)} seconds` },
        durationMs,
        initMs,
      };
    }
    if (m.type === 'result' || m.type === 'error') c.maxRss = Math.max(c.maxRss, m.rss);
    if (m.type === 'result') {
      const size = Buffer.byteLength(JSON.stringify(m.result));
      this.report(requestId, c, durationMs);
      this.release(c);
      if (size > RESPONSE_LIMIT) {
        const error = {
          errorType: 'Function.ResponseSizeTooLarge',
          errorMessage: `Response payload size (${size} bytes) exceeded maximum allowed payload size (${RESPONSE_LIMIT} bytes).`,
        };
        this.opts.log(`ERROR ${this.fn.name} RequestId: ${requestId} ${JSON.stringify(error)}`);
        return { ok: false, phase: 'invoke', error, durationMs, initMs };
      }
      return { ok: true, result: m.result, durationMs, initMs, handlerMs: m.handlerMs };
    }
    const error: LambdaError =
      'errorType' in m ? { errorType: m.errorType, errorMessage: m.errorMessage, stack: m.stack } : { errorType: 'Runtime.Unknown', errorMessage: m.type };
    this.opts.log(`ERROR ${this.fn.name} RequestId: ${requestId} ${JSON.stringify({ errorType: error.errorType, errorMessage: error.errorMessage })}`);
    this.report(requestId, c, durationMs);
    if (m.type === 'error') this.release(c);
    else c.kill();
    return { ok: false, phase: 'invoke', error, durationMs, initMs };
  }

  /** Starts one container and stops it: INIT duration alone (benchmarks). */
  async coldStart(): Promise<Outcome> {
    const got = await this.acquire();
    if ('error' in got) return { ok: false, phase: 'init', error: got.error, durationMs: 0, initMs: got.initMs };
    const initMs = got.c.initMs;
    got.c.kill();
    return { ok: true, result: null, durationMs: 0, initMs, initCpuMs: this.initCpu.at(-1) };
  }

  stop(): void {
    for (const c of this.containers) c.kill();
    this.containers.clear();
  }
}
