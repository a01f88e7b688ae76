import { addressRefusal, privateTargetsAllowed } from '../ip-addresses';

/** Longest webhook target URL (docs/reference/limits.md). */
export const MAX_TARGET_CHARS = 2048;

/**
 * Names that always mean this machine or the cloud's metadata service, whatever DNS says
 * (RFC 6761 reserves `localhost` and every name under it).
 */
function reservedName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === 'metadata.google.internal';
}

/**
 * Why a webhook may not call this URL, or undefined when it may (as far as the URL alone tells):
 * only absolute http(s) URLs, and not to a literal address outside public unicast (loopback,
 * private, link-local with the metadata address, multicast, unspecified...: the address classes
 * of the import-by-URL guard) nor to `localhost`. Names are resolved and checked again when a
 * hook is delivered, since DNS can point anywhere later. ALLOW_PRIVATE_TARGETS=1 (local stage and
 * tests only) lifts the address rules, not the URL form.
 */
export function targetRefusal(value: string, allowPrivate = privateTargetsAllowed()): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return 'must be an absolute http or https URL';
  // The URL parser has already normalised IPv4 spellings (0x7f.1, 2130706433) to dotted quads.
  if (allowPrivate) return undefined;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (reservedName(host)) return `must not point at ${host}, which is this machine or a metadata service`;
  const range = /^[\d.]+$/.test(host) || host.includes(':') ? addressRefusal(host) : undefined;
  return range && `must not point at a ${range} address (${host}); only public addresses may be called`;
}
