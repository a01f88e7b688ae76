/**
 * Which IP addresses this service may contact: the rule the import-by-URL fetcher, the webhook
 * target check and the upstream allow list share. Pure (no DNS), so every layer may use it.
 */
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * An IP address as Node's URL parser writes it (IPv6 in hex: `::127.0.0.1` -> `::7f00:1`,
 * `::ffff:127.0.0.1` -> `::ffff:7f00:1`), or undefined when it is not one. ipaddr.js reads any
 * dotted tail as IPv4-mapped, so `::127.0.0.1` and `::7f00:1`, one address, would be judged
 * differently; a host name from a URL is already in this form.
 */
export function canonicalIp(address: string): string | undefined {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined; // a zone index (fe80::1%eth0) is not a URL host
  }
}

/** IPv6 global unicast; ipaddr.js names only some special IPv6 ranges, so this bounds the rest. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Why an address may not be contacted (its range name), or undefined when it may. */
export function addressRefusal(address: string, allowLoopback = false): string | undefined {
  const canonical = canonicalIp(address);
  if (canonical === undefined) return 'not an IP address';
  // IPv4-mapped IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1) is judged as the IPv4 address it carries.
  const ip = ipaddr.process(canonical);
  const range = ip.range();
  if (range === 'loopback' && allowLoopback) return undefined;
  if (range !== 'unicast') return range;
  // What ipaddr.js calls unicast in IPv6 includes everything it has no name for, such as the
  // deprecated IPv4-compatible ::127.0.0.1, which some stacks still route to the IPv4 address.
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return 'non-global IPv6';
  return undefined;
}

/**
 * ALLOW_PRIVATE_TARGETS=1 lets webhooks call loopback and private addresses: for the local stage
 * and the tests, whose receivers listen on 127.0.0.1; the cloud stack never sets it
 * (docs/reference/configuration.md). Read from the environment at each use (not from
 * shared/config.ts) because the schemas, which sit below the settings, check webhook targets too.
 */
export function privateTargetsAllowed(): boolean {
  return process.env.ALLOW_PRIVATE_TARGETS === '1';
}
