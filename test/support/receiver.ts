/**
 * A real webhook receiver on 127.0.0.1 for the event suites: records every call (method, headers,
 * raw body) and answers each with the status `answer` gives for the call's number (1-based).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /** Resolves once `n` calls arrived (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<ReceivedCall[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number) => number = () => 200): Promise<Receiver> {
  const calls: ReceivedCall[] = [];
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
      const until = Date.now() + ms;
      while (calls.length < n) {
        if (Date.now() > until) throw new Error(`receiver got ${calls.length} calls, waited for ${n}`);
        await new Promise((r) => setTimeout(r, 50));
      }
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
  /** The most requests it held open at one time (each caller gives up on its own). */
  maxOpen(): number;
  close(): Promise<void>;
}

/**
 * A receiver that takes every request and never answers: the slow receiver of the noisy-neighbour
 * cases (each call holds its attempt for the whole call timeout).
 */
export async function startTarpit(): Promise<Tarpit> {
  let n = 0;
  let open = 0;
  let most = 0;
  const server = createServer((req) => {
    n++;
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
    count: () => n,
    maxOpen: () => most,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
