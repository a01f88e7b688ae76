/**
 * What a webhook's `header_map` may hold (docs/using/events-and-webhooks.md). Checked when a hook is written, and
 * meant to be checked again when it is delivered, so these are plain functions without I/O.
 */

/**
 * What every read shows for a header value: values are write-only (receivers' credentials live
 * there). Sent back as a value on PUT, it keeps the value stored under that name.
 */
export const HEADER_VALUE_MASK = '********';

/** Limits of one hook's headers; the total is what goes on the wire (names plus values). */
export const HEADER_LIMITS = { count: 50, nameChars: 256, valueChars: 8192, totalChars: 16_384 } as const;

/** RFC 9110 §5.1: a field name is a token. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * RFC 9110 §5.5 field value characters: visible ASCII, space, tab and obs-text (0x80-0xFF). CR, LF,
 * NUL and every other control character are out (a stored hook must not be able to add headers
 * or end the header block), and so is anything above 0xFF, which no header can carry.
 */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Headers the delivery owns. Hop-by-hop headers (RFC 9110 §7.6.1) and the body's framing belong
 * to the connection the delivery opens, not to the hook; routing headers would let a hook address
 * another virtual host or speak for a proxy; method overrides would change what the target does.
 */
const DENIED = /* @__PURE__ */ (() =>
  new Map<string, string>([
    ...['connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'http2-settings'].map((n) => [n, 'a hop-by-hop header'] as const),
    ...['content-length', 'transfer-encoding', 'content-encoding', 'expect'].map((n) => [n, 'a framing header the delivery sets'] as const),
    ...['host', 'forwarded', 'via', 'x-real-ip'].map((n) => [n, 'a routing header'] as const),
    ...['x-http-method-override', 'x-http-method', 'x-method-override'].map((n) => [n, 'a method override'] as const),
  ]))();
const DENIED_PREFIXES: ReadonlyArray<[string, string]> = [
  ['proxy-', 'a proxy header'],
  ['x-forwarded-', 'a routing header'],
];

/** Every denied name and prefix (`proxy-*`), for documentation and tests. */
export const DENIED_HEADER_NAMES: readonly string[] = /* @__PURE__ */ (() => [...DENIED.keys(), ...DENIED_PREFIXES.map(([p]) => `${p}*`)])();

/** Why a hook may not set this header (any case), or undefined when it may. */
export function headerRefusal(name: string): string | undefined {
  const lower = name.toLowerCase();
  const what = DENIED.get(lower) ?? DENIED_PREFIXES.find(([p]) => lower.startsWith(p))?.[1];
  return what && `${name} is ${what}; webhooks may not set it`;
}

export interface HeaderProblem {
  /** The header the problem is about; absent for the map as a whole. */
  name?: string;
  message: string;
}

/**
 * Problems of a whole header map beyond each name's and value's own characters: denied names,
 * names equal but for case (a receiver would see one header twice, or only one of them), too
 * many headers, too many characters in all.
 */
export function headerMapProblems(map: Readonly<Record<string, string>>): HeaderProblem[] {
  const problems: HeaderProblem[] = [];
  const names = Object.keys(map);
  if (names.length > HEADER_LIMITS.count) {
    problems.push({ message: `at most ${HEADER_LIMITS.count} headers (${names.length} given)` });
  }
  let total = 0;
  const seen = new Map<string, string>();
  for (const name of names) {
    total += name.length + (map[name]?.length ?? 0);
    const refused = headerRefusal(name);
    if (refused) problems.push({ name, message: refused });
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) problems.push({ name, message: `the same header as ${first} (header names ignore case)` });
    else seen.set(name.toLowerCase(), name);
  }
  if (total > HEADER_LIMITS.totalChars) {
    problems.push({ message: `names and values together must stay within ${HEADER_LIMITS.totalChars} characters (${total} given)` });
  }
  return problems;
}
