/**
 * The opt-in list of hosts an API's upstream may name (UPSTREAM_ALLOWED_HOSTS,
 * docs/reference/configuration.md). By design a definition may point the gateway at any host,
 * internal ones included; an installation whose dashboard users must not do that lists what they
 * may use. Names are matched as names (the gateway resolves them later, perhaps to other addresses,
 * so resolving here would prove nothing); address ranges match upstreams given as IP literals.
 */
import ipaddr from 'ipaddr.js';
import { BadRequest } from '../errors';
import { canonicalIp } from '../ip-addresses';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface HostAllowList {
  /** Exact host names, lower case. */
  names: Set<string>;
  /** `*.example.com` as `.example.com`: any name below it (not the name itself). */
  suffixes: string[];
  ranges: Range[];
}

const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/**
 * Entries separated by commas or white space: `api.example.com`, `*.example.com`, `10.1.2.3`,
 * `10.0.0.0/8`, `fd00::/8`. Undefined when unset or empty (no restriction); an entry of another
 * form throws, so a typo stops the service instead of silently allowing or refusing.
 */
export function parseHostAllowList(text: string | undefined): HostAllowList | undefined {
  const entries = (text ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) return undefined;
  const list: HostAllowList = { names: new Set(), suffixes: [], ranges: [] };
  for (const raw of entries) {
    const entry = raw.toLowerCase().replace(/\.$/, '');
    if (entry.includes('/')) {
      try {
        list.ranges.push(ipaddr.parseCIDR(entry));
        continue;
      } catch {
        /* reported below */
      }
    } else if (canonicalIp(entry) !== undefined) {
      const ip = ipaddr.process(canonicalIp(entry)!);
      list.ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      continue;
    } else if (entry.startsWith('*.') && HOST_NAME.test(entry.slice(2))) {
      list.suffixes.push(entry.slice(1));
      continue;
    } else if (HOST_NAME.test(entry)) {
      list.names.add(entry);
      continue;
    }
    throw new Error(`UPSTREAM_ALLOWED_HOSTS: "${raw}" is not a host name, *.domain, IP address or CIDR range`);
  }
  return list;
}

/** Whether the host of an absolute URL is on the list. */
export function isAllowedUpstream(url: string, list: HostAllowList): boolean {
  let host: string;
  try {
    host = new URL(url).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return false;
  }
  const ipHost = canonicalIp(host);
  if (ipHost !== undefined) {
    const ip = ipaddr.process(ipHost);
    return list.ranges.some(([base, bits]) => base.kind() === ip.kind() && ip.match(base as never, bits));
  }
  return list.names.has(host) || list.suffixes.some((s) => host.endsWith(s));
}

/** The allow-list's check of an upstream, as an import or a streams patch takes it: 400 naming `where` when `url` is not on it. */
export type UpstreamCheck = (url: unknown, where: string) => void;

/** 400 when an allow-list is set and `url` (where the definition sends traffic) is not on it. */
export function checkUpstreamAllowed(url: unknown, list: HostAllowList | undefined, where: string): void {
  if (!list || typeof url !== 'string' || url === '') return;
  if (isAllowedUpstream(url, list)) return;
  throw new BadRequest(`The upstream ${url.slice(0, 200)} is not among the hosts this installation allows (UPSTREAM_ALLOWED_HOSTS)`, [
    { path: where, message: 'host not in UPSTREAM_ALLOWED_HOSTS' },
  ]);
}
