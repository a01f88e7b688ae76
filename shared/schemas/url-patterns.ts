/**
 * What the OpenAPI document says of URL members, as JSON Schema patterns: only URLs whose host
 * the server's URL parser (WHATWG) takes, so a client working from the document never sends one
 * it refuses (`http://^:1`). The schemas themselves check with the parser; these are stricter
 * where a pattern cannot follow it (internationalised and `xn--` names, IPv4 in other spellings,
 * any name with a label ending in a digit-led TLD) and are proved against it by
 * test/unit/url-patterns.test.ts. No lookahead, so generators can draw from them.
 */

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `(?:${OCTET}\\.){3}${OCTET}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** RFC 3986's IPv6address, which the parser takes whole. */
const IPV6 = /* @__PURE__ */ (() =>
  [
    `(?:${H16}:){6}${LS32}`,
    `::(?:${H16}:){5}${LS32}`,
    `(?:${H16})?::(?:${H16}:){4}${LS32}`,
    `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
    `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
    `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
    `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
    `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
    `(?:(?:${H16}:){0,6}${H16})?::`,
  ].join('|'))();
/** A DNS name of ASCII labels (no label starts or ends with `-`, none holds `--`), its last starting with a letter. */
const LABEL = '[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*';
const NAME = `(?:${LABEL}\\.)*[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*`;
const HOST = `(?:${NAME}|${IPV4}|\\[(?:${IPV6})\\])`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})?)?';
const USERINFO = '(?:[^\\s/?#\\\\@;]*@)?';

/** An absolute http(s) URL with a host (webhook targets, import URLs, upstream URLs). */
export const HTTP_URL_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://${USERINFO}${HOST}${PORT}(?:[/?#\\\\]\\S*)?$`;

/** A scheme other than `file` (file URLs take neither a port nor credentials). */
const NOT_FILE =
  '(?:[A-Za-z][A-Za-z0-9+.-]{0,2}|[A-Za-z][A-Za-z0-9+.-]{4,}|[A-EG-Za-eg-z][A-Za-z0-9+.-]{3}|[Ff][A-HJ-Za-hj-z0-9+.-][A-Za-z0-9+.-]{2}' +
  '|[Ff][Ii][A-KM-Za-km-z0-9+.-][A-Za-z0-9+.-]|[Ff][Ii][Ll][A-DF-Za-df-z0-9+.-])';
/**
 * A redirect URI's host: a name or an IPv4 address. Neither credentials nor IPv6 literals: with
 * several URIs in one value, their alternatives made the pattern super-linear (the ReDoS checker
 * of test/unit/regex-safety.test.ts), and a redirect URI has no use for them.
 */
const REDIRECT_HOST = `(?:${NAME}|${IPV4})`;
/**
 * One absolute URI of any scheme, as OAuth redirect URIs are (`https://app.example/cb`,
 * `com.example.app:/oauth2redirect`, `myapp://cb`): what follows the scheme starts with a host,
 * which a special scheme (http, ws, ftp, file...) parses as one and any other takes as it is
 * (a backslash ends the host of a special scheme only, so it never follows one here). The two
 * forms never match the same text: a pattern with a choice per part would be exponential.
 */
const ANY_URI = `(?:${NOT_FILE}:/{0,2}${REDIRECT_HOST}${PORT}|[Ff][Ii][Ll][Ee]:/{0,2}${REDIRECT_HOST})(?:[/?#][^\\s;]*)?`;
/**
 * One URI or several separated by `;`. The server also trims spaces around each; the pattern takes
 * none, as spaces beside the parts made it super-linear.
 */
export const REDIRECT_URIS_PATTERN = `^${ANY_URI}(?:;${ANY_URI})*$`;

/** A pattern matching `text` in any case (JSON Schema patterns have no case-insensitive flag). */
export const anyCase = (text: string) => text.replace(/[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);

const RESERVED_HOST = /* @__PURE__ */ (() => `(?:${anyCase('localhost')}|${['metadata', 'google', 'internal'].map(anyCase).join('\\.')})`)();
/** An http(s) URL whose host is `localhost`, a name under it, or the metadata service's name (webhook targets never are). */
export const RESERVED_HOST_URL_PATTERN = `^[Hh][Tt][Tt][Pp][Ss]?://${USERINFO}(?:[^/?#\\\\:@]*\\.)?${RESERVED_HOST}(?:[:/?#\\\\]|$)`;
