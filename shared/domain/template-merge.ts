import { PayloadTooLarge } from '../errors';
import { LIMITS } from '../limits';
import { jsonBytesWithin } from '../lib/json-size';
import type { OasDoc } from './oas-parse';
import { isPlainObject } from '../lib/plain-object';

type Obj = Record<string, unknown>;

// Assigning `__proto__` would set a prototype instead of a member; the parsers refuse the key, and
// merging skips it too. (`constructor` is a legitimate property name in schemas and is kept.)
const UNSAFE_KEYS = new Set(['__proto__']);

/**
 * Deep merge where `over` wins: objects merge member by member, anything else (arrays included)
 * from `over` replaces what `under` has. Neither input is changed; the result shares no objects
 * with them.
 */
export function deepMerge(under: unknown, over: unknown): unknown {
  if (over === undefined) return structuredClone(under);
  if (!isPlainObject(under) || !isPlainObject(over)) return structuredClone(over);
  const out: Obj = {};
  for (const [k, v] of Object.entries(under)) if (!UNSAFE_KEYS.has(k)) out[k] = structuredClone(v);
  for (const [k, v] of Object.entries(over)) {
    if (UNSAFE_KEYS.has(k)) continue;
    out[k] = k in out ? deepMerge(out[k], v) : structuredClone(v);
  }
  return out;
}

/**
 * An asset (template) merged under an imported document (contract §8): the document wins on
 * clashing keys and its arrays replace the template's, so the template fills in only what the
 * document leaves out (paths, components, middleware...).
 *
 * The template's `x-gw-api-gateway` survives the merge (an import body cannot carry one), and
 * `buildImportedGateway` then layers the extension as:
 *   generated defaults  <  the template's x-gw-api-gateway  <  explicit query flags
 * so a template may set, say, its own listen path or upstream, while a query parameter the caller
 * sent on this very request always has the last word.
 */
export function mergeTemplate(templateData: OasDoc, doc: OasDoc): OasDoc {
  const merged = deepMerge(templateData, doc) as OasDoc;
  // Each is within the limit of a document; together they may not be (413, as for a body).
  if (jsonBytesWithin(merged, LIMITS.bodyBytes) === undefined) {
    throw new PayloadTooLarge(`The document merged with its template is larger than ${LIMITS.bodyBytes / 1024 / 1024} MB of JSON`);
  }
  return merged;
}
