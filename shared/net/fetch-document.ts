import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { BadRequest } from '../errors';
import { LIMITS } from '../limits';
import { addressRefusal } from '../ip-addresses';

/**
 * Fetches an OpenAPI document for `{"url": ...}` imports (contract §8) without becoming a
 * server-side request forgery tool:
 * - http and https only;
 * - every address the name resolves to must be public unicast (ipaddr.js `range()`: loopback,
 *   private, link-local, unique-local, carrier-grade NAT, multicast, broadcast, reserved, NAT64,
 *   6to4, Teredo and the cloud metadata addresses 169.254.169.254 / fd00:ec2::254 all fall
 *   outside it; IPv4-mapped IPv6 is judged as the IPv4 address it carries, and any other IPv6
 *   address must lie in global unicast 2000::/3, which refuses IPv4-compatible ::127.0.0.1);
 * - the connection goes to the address that was checked (a custom `lookup` returns it), so a
 *   second DNS answer cannot swap in another host (DNS rebinding);
 * - no redirects, 5 s for the whole exchange (DNS included), 5 MB at most.
 *
 * Every refusal or failure is 400: the URL is client input that cannot be used, and nothing is
 * stored. (422 is kept for references to objects of this service.)
 */

export interface FetchOptions {
  /**
   * Lets tests fetch from a local server. Honoured only when the process also runs under a test
   * runner (NODE_ENV=test or VITEST set), so no production configuration can turn it on.
   */
  allowLoopbackForTests?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface FetchedDocument {
  body: string;
  contentType: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 5_000;

function isTestRuntime(): boolean {
  return process.env.NODE_ENV === 'test' || Boolean(process.env.VITEST);
}

export async function fetchDocument(rawUrl: string, options: FetchOptions = {}): Promise<FetchedDocument> {
  const url = parseUrl(rawUrl);
  const allowLoopback = options.allowLoopbackForTests === true && isTestRuntime();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? LIMITS.bodyBytes;
  const deadline = Date.now() + timeoutMs;

  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await withDeadline(resolve(host), deadline, url);
  if (addresses.length === 0) throw new BadRequest(`The document URL's host ${host} has no address`);
  for (const a of addresses) {
    const why = addressRefusal(a.address, allowLoopback);
    if (why) {
      throw new BadRequest(`The document URL resolves to a ${why} address (${a.address}); only public addresses may be fetched`, [
        { path: 'body.url', message: `resolves to a ${why} address` },
      ]);
    }
  }
  return request(url, addresses[0]!, Math.max(1, deadline - Date.now()), maxBytes);
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequest('The document URL is not a valid absolute URL', [{ path: 'body.url', message: 'not a valid URL' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequest(`The document URL must use http or https, not ${url.protocol.replace(/:$/, '')}`, [
      { path: 'body.url', message: 'only http and https are allowed' },
    ]);
  }
  return url;
}

interface Resolved {
  address: string;
  family: 4 | 6;
}

async function resolve(host: string): Promise<Resolved[]> {
  if (ipaddr.isValid(host)) return [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  try {
    const all = await lookup(host, { all: true, verbatim: true });
    return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch {
    throw new BadRequest(`The document URL's host ${host} could not be resolved`, [{ path: 'body.url', message: 'unknown host' }]);
  }
}

async function withDeadline<T>(work: Promise<T>, deadline: number, url: URL): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(url)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(url: URL): BadRequest {
  return new BadRequest(`Fetching ${url.origin} took longer than 5 seconds`, [{ path: 'body.url', message: 'timed out' }]);
}

/** The checked address, whatever name Node asks for (both callback shapes of `lookup`). */
function pinnedLookup(pinned: Resolved): LookupFunction {
  return ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

function request(url: URL, pinned: Resolved, timeoutMs: number, maxBytes: number): Promise<FetchedDocument> {
  return new Promise<FetchedDocument>((resolvePromise, rejectPromise) => {
    let settled = false;
    const finish = (error: BadRequest | undefined, value?: FetchedDocument) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        req.destroy();
        rejectPromise(error);
      } else resolvePromise(value!);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(pinned),
      headers: {
        accept: 'application/json, application/x-yaml;q=0.9, application/yaml;q=0.9, */*;q=0.1',
        'accept-encoding': 'identity',
        'user-agent': 'gw-control-plane-import',
      },
    });
    const timer = setTimeout(() => finish(timedOut(url)), timeoutMs);

    req.on('error', (e) => finish(new BadRequest(`Fetching the document failed: ${e.message}`, [{ path: 'body.url', message: 'unreachable' }])));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        return finish(
          new BadRequest(`The document URL answered ${status}; redirects are not followed`, [{ path: 'body.url', message: 'redirects are not followed' }]),
        );
      }
      if (status < 200 || status >= 300) {
        return finish(new BadRequest(`The document URL answered HTTP ${status}`, [{ path: 'body.url', message: `HTTP ${status}` }]));
      }
      const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding !== 'identity') {
        return finish(new BadRequest(`The document URL sent a ${encoding}-encoded body; only uncompressed documents are read`));
      }
      const tooLarge = () =>
        new BadRequest(`The document is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, [{ path: 'body.url', message: 'document too large' }]);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) return finish(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish(tooLarge());
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (!res.complete) return finish(new BadRequest('The document URL closed the connection before the document ended'));
        const ct = res.headers['content-type'];
        finish(undefined, { body: Buffer.concat(chunks).toString('utf8'), contentType: ct });
      });
      res.on('error', (e) => finish(new BadRequest(`Reading the document failed: ${e.message}`)));
    });
    req.end();
  });
}
