/**
 * The one HTTP client of the test suite, the benchmarks and the durability run: a keep-alive
 * agent with as little overhead as Node allows (benchmarks take latency samples through it), and
 * the request defaults a browser's fetch has (a string body without Content-Type is text/plain).
 */
import { Agent, request as httpRequest } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: T;
  text: string;
  /** Milliseconds from sending the request to the last byte of the answer. */
  ms: number;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Objects go as JSON (application/json unless a Content-Type is given); strings and bytes as they are. */
  body?: unknown;
  /** Gives up (rejects) when the whole answer has not arrived by then. */
  timeoutMs?: number;
  /**
   * Sends the path exactly as written: without it the path goes through WHATWG URL parsing, which
   * removes dot segments (`..`, `%2e%2e`) and turns `\` into `/` before anything is sent.
   */
  verbatim?: boolean;
}

function payload(body: unknown, headers: Record<string, string>): Buffer | undefined {
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (typeof body === 'string') {
    if (!has('content-type')) headers['content-type'] = 'text/plain;charset=UTF-8';
    return Buffer.from(body);
  }
  if (!has('content-type')) headers['content-type'] = 'application/json';
  return Buffer.from(JSON.stringify(body));
}

/** One exchange as sent and answered, for whoever watches the traffic (test/support/record-traffic.ts). */
export interface Exchange {
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: Buffer | undefined;
  answer: Answer;
}
const watchers: Array<(exchange: Exchange) => void> = [];
/** Calls `watch` with every exchange this client completes until the answered function is called. */
export function watchTraffic(watch: (exchange: Exchange) => void): () => void {
  watchers.push(watch);
  return () => void watchers.splice(watchers.indexOf(watch), 1);
}

/** One request to `base` + `path`; answers whatever status comes back (it rejects only when no answer does). */
export async function request<T = any>(base: string, asked: string, path: string, opts: RequestOptions = {}): Promise<Answer<T>> {
  // An ANY route (API Gateway's) takes every method; no client sends "ANY" itself (Node's parser refuses it).
  const method = asked === 'ANY' ? 'GET' : asked;
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const data = payload(opts.body, headers);
  if (data !== undefined) headers['content-length'] = String(data.length);
  const url = new URL(path, base);
  const target = opts.verbatim ? path : url.pathname + url.search;
  const answer = await send<T>(url, target, method, headers, data, opts.timeoutMs, true);
  for (const watch of watchers) watch({ method, path: target, requestHeaders: headers, requestBody: data, answer });
  return answer;
}

function send<T>(
  url: URL,
  target: string,
  method: string,
  headers: Record<string, string>,
  data: Buffer | undefined,
  timeoutMs: number | undefined,
  retry: boolean,
): Promise<Answer<T>> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = httpRequest({ agent, host: url.hostname, port: url.port, path: target, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: keep the text */
        }
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, v);
        }
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: body as T, text, ms });
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed while it was idle: the request never reached it, so
      // it goes again once on a new connection (what Node's documentation advises).
      if (retry && req.reusedSocket && e.code === 'ECONNRESET') send<T>(url, target, method, headers, data, timeoutMs, false).then(resolve, reject);
      else reject(e);
    });
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    if (data !== undefined) req.write(data);
    req.end();
  });
}

/** Milliseconds an async function takes. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Polls GET /hello until it answers pass; false when `deadline` (epoch ms) passes first or `gone()` says the stage died. */
export async function waitForPass(base: string, deadline: number, gone: () => boolean = () => false): Promise<boolean> {
  for (;;) {
    if (gone()) return false;
    try {
      const r = await request<{ status?: string }>(base, 'GET', '/hello', { timeoutMs: 1_000 });
      if (r.status === 200 && r.body.status === 'pass') return true;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
