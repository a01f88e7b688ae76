/**
 * The path a routing decision is made on (contract §13), pure. Listen paths and `allowed_urls`
 * are compared with the path the upstream will act on, not with the spelling the client chose:
 * `/books/%2e%2e/admin/x`, `/books/./admin/x` and `/books/%61dmin/x` are all `/admin/x` or
 * `/books/admin/x` to an upstream that follows RFC 3986, so they are decided as that.
 *
 * Normal form (RFC 3986 §6.2.2, plus what gateways do): percent-encodings in upper case,
 * unreserved characters decoded, dot segments removed (§5.2.4), repeated slashes merged (as nginx
 * does and as listen paths are matched), characters a URI may not hold literally percent-encoded
 * (UTF-8). A path that upstreams read in different ways is refused before any API is chosen: an
 * encoded `/` or `\`, a literal `\`, a `;` parameter in a segment, an encoded NUL, a `%` that
 * starts no encoding.
 */

export type DecidedPath = { ok: true; path: string } | { ok: false; reason: string };

/** RFC 3986 unreserved characters: their percent-encodings mean the character itself. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** What a path segment may hold literally besides unreserved characters and encodings (pchar: sub-delims, ':' and '@'). */
const PCHAR_DELIMS = new Set("!$&'()*+,=:@".split(''));

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** A literal character a URI may not hold, as its percent-encoded UTF-8. */
const encodeChar = (ch: string): string => [...new TextEncoder().encode(ch)].map(hex).join('');

/**
 * A header's text as the bytes it arrived as, read as UTF-8: HTTP servers hand a header over one
 * Latin-1 character per byte, so a path of UTF-8 bytes in X-Original-URI reads as its characters.
 */
export function headerText(value: string): string {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0xff) return value;
  return new TextDecoder().decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
}

/**
 * `raw`: the path as the gateway saw it, without its query. `decoded`: the path was already
 * percent-decoded by whoever hands it over (API Gateway HTTP APIs decode `rawPath`), so a `%` in
 * it is data, not the start of an encoding.
 */
export function decidedPath(raw: string, opts: { decoded?: boolean } = {}): DecidedPath {
  if (raw.includes('\\')) return { ok: false, reason: 'a backslash in the path' };
  let out = '';
  for (let i = 0; i < raw.length; ) {
    const ch = String.fromCodePoint(raw.codePointAt(i)!);
    i += ch.length;
    if (ch === '%' && !opts.decoded) {
      const pair = raw.slice(i, i + 2);
      if (!/^[0-9A-Fa-f]{2}$/.test(pair)) return { ok: false, reason: 'a % that starts no percent-encoding' };
      i += 2;
      const byte = Number.parseInt(pair, 16);
      if (byte === 0x2f || byte === 0x5c) return { ok: false, reason: 'an encoded / or \\ in the path' };
      if (byte === 0) return { ok: false, reason: 'an encoded NUL in the path' };
      const decoded = String.fromCharCode(byte);
      out += UNRESERVED.test(decoded) ? decoded : hex(byte);
    } else if (ch === ';') {
      return { ok: false, reason: 'a ; parameter in a path segment' };
    } else if (ch === '/' || UNRESERVED.test(ch) || PCHAR_DELIMS.has(ch)) {
      out += ch;
    } else {
      out += encodeChar(ch);
    }
  }
  return { ok: true, path: removeDotSegments(out) };
}

/**
 * RFC 3986 §5.2.4 on a path of segments (a `..` above the root stays at the root), with empty
 * segments dropped but for a trailing slash, which upstreams tell apart (`/a/` is not `/a`).
 */
function removeDotSegments(path: string): string {
  const segments = path.split('/');
  const kept: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') kept.pop();
    else kept.push(s);
  }
  const last = segments[segments.length - 1];
  const trailing = kept.length > 0 && (last === '' || last === '.' || last === '..');
  return `/${kept.join('/')}${trailing ? '/' : ''}`;
}
