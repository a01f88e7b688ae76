import { isIPv4, isIPv6 } from 'node:net';

/** An absolute http(s) URL with a host (webhook targets, upstream URLs). */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

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
