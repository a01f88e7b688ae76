/**
 * Parsing of client text that every layer may need (the request body in http/, an imported
 * document in domain/): JSON without prototype keys or runaway nesting, media types. Refusals
 * are layer-neutral errors; http/ maps them to the route's envelope.
 */
import sjson from 'secure-json-parse';
import { BadRequest } from './errors';
import { LIMITS } from './limits';

/** Media type without parameters, lower case; '' when absent. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A member path as refusals show it (`body.a.0.b`), an empty name as `""`. */
export const memberPath = (path: readonly PropertyKey[]) => path.map((s) => (s === '' ? '""' : String(s))).join('.');

/**
 * Refuses nesting deeper than the documented limit without recursion (no stack overflow), naming
 * the first member past it under `where` (`body`), and numbers JSON.parse turned into Infinity
 * (1e309): free-form members would otherwise carry them to storage, which cannot hold them.
 */
export function checkDepth(value: unknown, max: number = LIMITS.jsonDepth, where = 'body'): void {
  const stack: Array<[unknown, number, PropertyKey[]]> = [[value, 1, [where]]];
  while (stack.length) {
    const [v, d, path] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v))
      throw new BadRequest('JSON number out of range (such as 1e309)', [{ path: memberPath(path), message: 'must be finite' }]);
    if (v === null || typeof v !== 'object') continue;
    if (d > max) {
      throw new BadRequest(`JSON is nested deeper than ${max} levels`, [
        { path: memberPath(path), message: `nests deeper than ${max} levels (the ${where} is the first)` },
      ]);
    }
    for (const [k, child] of Object.entries(v)) {
      if (typeof child === 'number' || (child !== null && typeof child === 'object')) stack.push([child, d + 1, [...path, k]]);
    }
  }
}

/**
 * JSON.parse that rejects `__proto__` and `constructor.prototype` keys, so no request can reach
 * an object's prototype. 1e309 parses to Infinity, which checkDepth refuses.
 */
export function parseJson(text: string | undefined, where = 'body'): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (e) {
    const reason = e instanceof SyntaxError ? e.message : 'forbidden key __proto__ or constructor.prototype';
    throw new BadRequest(`Malformed JSON body: ${reason}`);
  }
  checkDepth(value, LIMITS.jsonDepth, where);
  return value;
}
