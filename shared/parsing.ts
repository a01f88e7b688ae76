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

/**
 * Refuses nesting deeper than the documented limit without recursion (no stack overflow), and
 * numbers JSON.parse turned into Infinity (1e309): free-form members would otherwise carry them
 * to storage, which cannot hold them (a 500 instead of a 400).
 */
export function checkDepth(value: unknown, max: number = LIMITS.jsonDepth): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) throw new BadRequest('JSON number out of range (such as 1e309)');
    if (v === null || typeof v !== 'object') continue;
    if (d > max) throw new BadRequest(`JSON is nested deeper than ${max} levels`);
    for (const child of Object.values(v)) if (typeof child === 'number' || (child !== null && typeof child === 'object')) stack.push([child, d + 1]);
  }
}

/**
 * JSON.parse that rejects `__proto__` and `constructor.prototype` keys, so no request can reach
 * an object's prototype. 1e309 parses to Infinity, which checkDepth refuses.
 */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (e) {
    const reason = e instanceof SyntaxError ? e.message : 'forbidden key __proto__ or constructor.prototype';
    throw new BadRequest(`Malformed JSON body: ${reason}`);
  }
  checkDepth(value);
  return value;
}
