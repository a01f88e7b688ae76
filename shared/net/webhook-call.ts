/**
 * One webhook call (contract §11) that cannot be turned against the service's own network: the
 * target's name is resolved, every address is checked like an import by URL (no loopback,
 * private, link-local, metadata or multicast address; shared/ip-addresses.ts) and the connection
 * goes to the checked address (a custom `lookup` returns it), so a second DNS answer cannot swap
 * in another host. Redirects are never followed: a 3xx is a failed attempt, as the target would
 * otherwise choose where the signed payload goes. 10 s for the whole exchange; the answer's body
 * is read (at most 64 KB) and dropped.
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

export interface CallResult {
  /** The answer's status code, when one came. */
  status?: number;
  durationMs: number;
  /** Why it did not count as delivered, when it did not. */
  error?: string;
  /** True when retrying cannot help (the target is refused, whatever DNS says later counts again). */
  refused?: boolean;
}

export interface CallOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
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
    return { durationMs: took(), error: 'the target is not a valid URL', refused: true };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { durationMs: took(), error: 'the target must be http or https', refused: true };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Resolved[];
  try {
    addresses = await Promise.race([
      resolveHost(host, opts.resolve),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('DNS timed out')), timeoutMs).unref()),
    ]);
  } catch (e) {
    return { durationMs: took(), error: `the target's host ${host} could not be resolved: ${(e as Error).message}` };
  }
  if (addresses.length === 0) return { durationMs: took(), error: `the target's host ${host} has no address` };
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const why = addressRefusal(a.address);
      if (why) return { durationMs: took(), error: `refused: the target resolves to a ${why} address (${a.address})`, refused: true };
    }
  }
  return send(url, req, addresses[0]!, Math.max(1, timeoutMs - took()), started);
}

function send(url: URL, req: WebhookRequest, pinned: Resolved, timeoutMs: number, started: number): Promise<CallResult> {
  return new Promise<CallResult>((done) => {
    let settled = false;
    const finish = (r: Omit<CallResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
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
    const timer = setTimeout(() => finish({ error: `no answer within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs);
    client.on('error', (e) => finish({ error: `the call failed: ${e.message}` }));
    client.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) res.destroy();
      });
      const settle = () => {
        if (status >= 200 && status < 300) finish({ status });
        else if (status >= 300 && status < 400) finish({ status, error: `answered ${status}; redirects are not followed` });
        else finish({ status, error: `answered HTTP ${status}` });
      };
      res.on('end', settle);
      res.on('close', settle);
      res.on('error', settle);
    });
    client.end(body);
  });
}
