/**
 * A real webhook receiver on 127.0.0.1 for the event suites: records every call (method, headers,
 * raw body) and answers each with the status `answer` gives for the call's number (1-based).
 * Both it and the tarpit count what arrives, and a test waits on that count, never on the clock.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A count that can be waited on: `until(n, ms)` resolves once it reaches `n`, and rejects naming
 * `what` when `ms` pass first (a deadline for the failure's sake: arriving sooner is never waited out).
 */
function counter(what: string) {
  let n = 0;
  const waiting = new Set<{ n: number; done: () => void }>();
  return {
    get value() {
      return n;
    },
    add() {
      n++;
      for (const w of waiting) if (n >= w.n) w.done();
    },
    until(target: number, ms: number): Promise<void> {
      if (n >= target) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w = {
          n: target,
          done: () => {
            clearTimeout(timer);
            waiting.delete(w);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiting.delete(w);
          reject(new Error(`${what}: ${n} arrived within ${ms} ms, waited for ${target}`));
        }, ms);
        waiting.add(w);
      });
    },
  };
}

interface ReceivedCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  calls: ReceivedCall[];
  /** Resolves with the calls once `n` arrived (rejects after `ms`, 15 s by default). */
  waitFor(n: number, ms?: number): Promise<ReceivedCall[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number) => number = () => 200): Promise<Receiver> {
  const calls: ReceivedCall[] = [];
  const arrived = counter('receiver');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      arrived.add();
      res.statusCode = answer(calls.length);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    calls,
    async waitFor(n, ms = 15_000) {
      await arrived.until(n, ms);
      return calls;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface Tarpit {
  url: string;
  /** Requests that arrived (none is ever answered). */
  count(): number;
  /** Resolves once `n` requests arrived (rejects after `ms`, 15 s by default). */
  waitFor(n: number, ms?: number): Promise<void>;
  /** The most requests it held open at one time (each caller gives up on its own). */
  maxOpen(): number;
  close(): Promise<void>;
}

/**
 * A receiver that takes every request and never answers: the slow receiver of the noisy-neighbour
 * cases (each call holds its attempt for the whole call timeout).
 */
export async function startTarpit(): Promise<Tarpit> {
  const arrived = counter('tarpit');
  let open = 0;
  let most = 0;
  const server = createServer((req) => {
    arrived.add();
    most = Math.max(most, ++open);
    req.socket.once('close', () => open--);
    req.resume();
  });
  server.keepAliveTimeout = 0;
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', 1024, r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tarpit`,
    count: () => arrived.value,
    waitFor: (n, ms = 15_000) => arrived.until(n, ms),
    maxOpen: () => most,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
