/**
 * One webhook call (contract §11) that cannot be turned against the service's own network: the
 * target's name is resolved, every address is checked like an import by URL (no loopback,
 * private, link-local, metadata or multicast address; shared/ip-addresses.ts) and the connection
 * goes to the checked address (a custom `lookup` returns it), so a second DNS answer cannot swap
 * in another host. Redirects are never followed: a 3xx is a failed attempt, as the target would
 * otherwise choose where the signed payload goes. 10 s for the whole exchange, of which 3 s at
 * most to connect (a target that drops packets frees its worker early); the answer's body is read
 * (at most 64 KB) and dropped.
 *
 * A failure answers a coarse class only (what the delivery log shows, so the log tells a tenant
 * nothing about DNS, addresses or which ports answer) and a detail for the service's own log.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { addressRefusal } from '../ip-addresses';

export interface WebhookRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Why an attempt did not count as delivered, as the delivery log shows it: `refused_target` (not
 * an http(s) URL, or an address the rules refuse), `connection_failed` (no address, refused,
 * reset, unreachable, or not connected within the connect timeout), `tls_error`, `timeout`
 * (connected, no whole answer in time), `http_error` (any status but 2xx; `status` holds it).
 */
type CallError = 'refused_target' | 'connection_failed' | 'tls_error' | 'timeout' | 'http_error';

export interface CallResult {
  /** The answer's status code, when one came. */
  status?: number;
  durationMs: number;
  /** Why it did not count as delivered, when it did not. */
  error?: CallError;
  /** What happened, for the service's own log only (names, addresses, Node's error text). */
  detail?: string;
  /** True when retrying cannot help (the target is refused, whatever DNS says later counts again). */
  refused?: boolean;
}

export interface CallOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  /** Milliseconds to open the connection, within `timeoutMs` (default 3,000). */
  connectTimeoutMs?: number;
  /** Tests answer DNS themselves. */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

const MAX_ANSWER_BYTES = 64 * 1024;

interface Resolved {
  address: string;
  family: 4 | 6;
}

async function resolveHost(host: string, resolve: CallOptions['resolve']): Promise<Resolved[]> {
  if (ipaddr.isValid(host)) return [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  const all = resolve ? await resolve(host) : await dnsLookup(host, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** The checked address, whatever name Node asks for (both callback shapes of `lookup`). */
function pinnedLookup(pinned: Resolved): LookupFunction {
  return ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

export async function callWebhook(req: WebhookRequest, opts: CallOptions): Promise<CallResult> {
  const started = Date.now();
  const took = () => Date.now() - started;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { durationMs: took(), error: 'refused_target', detail: 'the target is not a valid URL', refused: true };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { durationMs: took(), error: 'refused_target', detail: 'the target must be http or https', refused: true };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Resolved[];
  try {
    addresses = await Promise.race([
      resolveHost(host, opts.resolve),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('DNS timed out')), timeoutMs).unref()),
    ]);
  } catch (e) {
    return { durationMs: took(), error: 'connection_failed', detail: `the target's host ${host} could not be resolved: ${(e as Error).message}` };
  }
  if (addresses.length === 0) return { durationMs: took(), error: 'connection_failed', detail: `the target's host ${host} has no address` };
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const why = addressRefusal(a.address);
      if (why) return { durationMs: took(), error: 'refused_target', detail: `the target ${host} resolves to a ${why} address (${a.address})`, refused: true };
    }
  }
  const left = Math.max(1, timeoutMs - took());
  return send(url, req, addresses[0]!, left, Math.min(left, opts.connectTimeoutMs ?? 3_000), started);
}

/** Node's TLS failures: certificate and handshake errors carry these codes or words. */
const isTlsFailure = (e: NodeJS.ErrnoException) =>
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/.test(e.code ?? '') || /SSL|TLS|certificate/i.test(e.message);

function send(url: URL, req: WebhookRequest, pinned: Resolved, timeoutMs: number, connectTimeoutMs: number, started: number): Promise<CallResult> {
  return new Promise<CallResult>((done) => {
    let settled = false;
    const finish = (r: Omit<CallResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(connectTimer);
      client.destroy();
      done({ ...r, durationMs: Date.now() - started });
    };
    const body = Buffer.from(req.body, 'utf8');
    const client = (url.protocol === 'https:' ? https : http).request(url, {
      method: req.method,
      agent: false,
      lookup: pinnedLookup(pinned),
      headers: { ...req.headers, 'content-length': String(body.length) },
    });
    const timer = setTimeout(() => finish({ error: 'timeout', detail: `no answer within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs);
    const connectTimer = setTimeout(
      () => finish({ error: 'connection_failed', detail: `${pinned.address} not connected within ${connectTimeoutMs} ms` }),
      connectTimeoutMs,
    );
    client.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    client.on('error', (e: NodeJS.ErrnoException) =>
      finish({ error: isTlsFailure(e) ? 'tls_error' : 'connection_failed', detail: `${pinned.address}: ${e.code ?? ''} ${e.message}`.trim() }),
    );
    client.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) res.destroy();
      });
      const settle = () => {
        if (status >= 200 && status < 300) finish({ status });
        else
          finish({
            status,
            error: 'http_error',
            detail: status >= 300 && status < 400 ? `answered ${status}; redirects are not followed` : `answered HTTP ${status}`,
          });
      };
      res.on('end', settle);
      res.on('close', settle);
      res.on('error', settle);
    });
    client.end(body);
  });
}
