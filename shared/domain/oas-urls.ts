import { BadRequest } from '../errors';
import { LIMITS } from '../limits';

/**
 * The members of an OpenAPI document that the validator checks with format regexes (uri,
 * uri-reference, email; in 3.0 `pattern` is compiled as a regex), with the length each may have.
 * ajv-formats' uri-reference regex is polynomial on long input, so these strings are bounded
 * before the validator sees them (docs/reference/limits.md: URLs 2,048, e-mail 254).
 */
export const BOUNDED_MEMBERS: Readonly<Record<string, number>> = {
  $ref: LIMITS.url,
  $self: LIMITS.url,
  jsonSchemaDialect: LIMITS.url,
  termsOfService: LIMITS.url,
  url: LIMITS.url,
  externalValue: LIMITS.url,
  operationRef: LIMITS.url,
  openIdConnectUrl: LIMITS.url,
  oauth2MetadataUrl: LIMITS.url,
  authorizationUrl: LIMITS.url,
  tokenUrl: LIMITS.url,
  refreshUrl: LIMITS.url,
  deviceAuthorizationUrl: LIMITS.url,
  namespace: LIMITS.url,
  email: 254,
  pattern: LIMITS.longString,
};

/** Free values (examples, defaults, enums) may hold any member name without it being a URL. */
const FREE_VALUES = new Set(['example', 'value', 'default', 'enum', 'const']);

/**
 * 400 naming the first URL-like member longer than its limit (`body.servers.0.url`). One pass,
 * iterative (no recursion on deep documents); extension members (`x-...`) and free values are
 * not looked into, since the validator does not check formats there.
 */
export function refuseLongUrlMembers(doc: unknown): void {
  const stack: Array<[unknown, string[]]> = [[doc, []]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      if (!Array.isArray(value) && (key.startsWith('x-') || FREE_VALUES.has(key))) continue;
      const max = Array.isArray(value) ? undefined : BOUNDED_MEMBERS[key];
      if (max !== undefined && typeof child === 'string' && child.length > max) {
        const where = ['body', ...path, key].join('.');
        throw new BadRequest(`${where} is longer than ${max} characters`, [{ path: where, message: `longer than ${max} characters` }]);
      }
      if (child !== null && typeof child === 'object') stack.push([child, [...path, key]]);
    }
  }
}
