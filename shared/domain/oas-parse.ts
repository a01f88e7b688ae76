import type { Validator } from '@seriousme/openapi-schema-validator';
import { isScalar, LineCounter, parseDocument, visit, type YAMLError } from 'yaml';
import { mediaType, memberPath, parseJson } from '../parsing';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType, type ErrorDetail } from '../errors';
import { LIMITS } from '../limits';
import { jsonBytesWithin } from '../lib/json-size';
import { GW_EXTENSION } from './oas-document';
import { refuseLongUrlMembers } from './oas-urls';

/** A parsed OpenAPI document: a plain JSON object. */
export type OasDoc = Record<string, unknown>;

const JSON_MEDIA_TYPES = ['', 'application/json'] as const;
const YAML_MEDIA_TYPES = ['application/x-yaml', 'application/yaml', 'text/yaml', 'text/x-yaml'] as const;

/**
 * The request body of an import as a plain object, by Content-Type (parameters such as
 * `charset` ignored; missing = JSON). Anything but JSON or YAML is 415.
 */
export function parseOasBody(raw: string, contentType: string | undefined): OasDoc {
  const type = mediaType(contentType);
  if ((JSON_MEDIA_TYPES as readonly string[]).includes(type)) return asDocument(parseJson(raw));
  if ((YAML_MEDIA_TYPES as readonly string[]).includes(type)) return asDocument(parseYaml(raw));
  throw new UnsupportedMediaType(`Content-Type ${type} is not accepted for an OpenAPI import; use application/json or application/x-yaml`);
}

/**
 * A document fetched from a URL: servers label YAML and JSON loosely (text/plain is common), so
 * an unknown type is read as JSON when it looks like JSON and as YAML otherwise.
 */
export function parseFetchedDocument(body: string, contentType: string | undefined): OasDoc {
  const type = mediaType(contentType);
  if (type === 'application/json') return asDocument(parseJson(body, 'document'));
  if ((YAML_MEDIA_TYPES as readonly string[]).includes(type)) return asDocument(parseYaml(body, 'document'));
  return asDocument(body.trimStart().startsWith('{') ? parseJson(body, 'document') : parseYaml(body, 'document'));
}

/**
 * YAML 1.2 core schema only: no custom tags (an unknown tag is refused rather than read as text),
 * no merge keys, unique keys, one document, bounded aliases.
 *
 * Aliases are the "billion laughs" vector, and real OpenAPI documents use few, if any. Two limits,
 * both checked before anything is validated or stored: at most LIMITS.yamlAliases aliases in the
 * whole document (400; the library's own `maxAliasCount` counts per anchor, so five anchors could
 * each be repeated 99 times), and the expanded document at most as large as a JSON body may be
 * (413): a hundred aliases of one 5 MB string would otherwise store 500 MB.
 */
export function parseYaml(raw: string, where = 'body'): unknown {
  if (raw.trim() === '') return undefined;
  const lineCounter = new LineCounter();
  const doc = parseDocument(raw, {
    schema: 'core',
    customTags: [],
    merge: false,
    // The library's own check compares every key with every other (slow on large `paths`);
    // refuseDuplicateKeysAndManyAliases does the same job in one pass.
    uniqueKeys: false,
    // Its pretty errors trim the line with /[\n\r]+$/, quadratic on a line of carriage returns
    // (39 s for 100,000); the position comes from the line counter instead.
    prettyErrors: false,
    lineCounter,
  });
  const problem = doc.errors[0] ?? doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (problem) throw new BadRequest(`Malformed YAML body: ${firstLine(problem.message)}${position(problem, lineCounter)}`);
  let value: unknown;
  try {
    refuseDuplicateKeysAndManyAliases(doc);
    // Aliases resolve to the anchor's own value (shared, not copied), so this allocates no more
    // than the text held. The library's per-anchor check stays on as a quick refusal of nested
    // "billion laughs" (it counts the anchor itself, hence + 1).
    value = doc.toJS({ maxAliasCount: LIMITS.yamlAliases + 1 });
  } catch (e) {
    if (e instanceof BadRequest) throw e;
    // Nested aliases the library finds excessive throw here; deep nesting may overflow the
    // stack. Either is the client's input.
    throw new BadRequest(`Malformed YAML body: ${firstLine(e instanceof Error ? e.message : String(e))}`);
  }
  if (jsonBytesWithin(value, LIMITS.bodyBytes) === undefined) {
    throw new PayloadTooLarge(
      `The YAML document expands to more than ${LIMITS.bodyBytes / 1024 / 1024} MB of JSON (each alias ` +
        `counts as a copy of its anchor), the limit of a JSON body`,
    );
  }
  refuseDeepOrProtoKeys(value, where);
  return value;
}

function refuseDuplicateKeysAndManyAliases(doc: ReturnType<typeof parseDocument>): void {
  let aliases = 0;
  visit(doc, {
    Alias() {
      if (++aliases > LIMITS.yamlAliases) {
        throw new BadRequest(`Malformed YAML body: more than ${LIMITS.yamlAliases} aliases in the document`);
      }
    },
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        // As object members, 1 and "1" are the same key.
        const k = isScalar(pair.key) ? String(pair.key.value) : pair.key;
        if (seen.has(k)) throw new BadRequest(`Malformed YAML body: map keys must be unique; ${String(k)} appears twice`);
        seen.add(k);
      }
    },
  });
}

/**
 * Same rules as the JSON parser, in one pass: nesting within LIMITS.jsonDepth, no key that
 * could reach an object's prototype, and only finite numbers (YAML's .inf and .nan would be
 * stored as null, silently changing the document).
 */
function refuseDeepOrProtoKeys(value: unknown, where: string): void {
  const stack: Array<[unknown, number, PropertyKey[]]> = [[value, 1, [where]]];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) throw new BadRequest('YAML number out of range (.inf or .nan)');
    if (v === null || typeof v !== 'object') continue;
    if (depth > LIMITS.jsonDepth) {
      const detail = { path: memberPath(path), message: `nests deeper than ${LIMITS.jsonDepth} levels (the ${where} is the first)` };
      throw new BadRequest(`YAML is nested deeper than ${LIMITS.jsonDepth} levels`, [detail]);
    }
    for (const [k, child] of Object.entries(v)) {
      const viaConstructor = k === 'constructor' && child !== null && typeof child === 'object' && 'prototype' in child;
      if (k === '__proto__' || viaConstructor) {
        throw new BadRequest('Malformed YAML body: forbidden key __proto__ or constructor.prototype');
      }
      if ((child !== null && typeof child === 'object') || typeof child === 'number') stack.push([child, depth + 1, [...path, k]]);
    }
  }
}

function position(error: YAMLError, lines: LineCounter): string {
  if (error.pos[0] < 0) return '';
  const { line, col } = lines.linePos(error.pos[0]);
  return ` at line ${line}, column ${col}`;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

function asDocument(value: unknown): OasDoc {
  if (value === undefined) throw new BadRequest('The body is empty; send an OpenAPI document');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequest('The body must be an OpenAPI document (an object)');
  }
  return value as OasDoc;
}

/** `{"url": "..."}` as the whole body asks the service to fetch the document (contract §8). */
export function importUrlOf(doc: OasDoc): string | undefined {
  const keys = Object.keys(doc);
  if (keys.length !== 1 || keys[0] !== 'url') return undefined;
  if (typeof doc.url !== 'string') throw new BadRequest('url must be a string', [{ path: 'body.url', message: 'must be a string' }]);
  return doc.url;
}

/** Import creates the extension itself; a document bringing its own is a client mistake. */
export function rejectGatewayExtension(doc: OasDoc): void {
  if (GW_EXTENSION in doc) {
    throw new BadRequest(`An imported document must not carry ${GW_EXTENSION}; create it with POST /gw/apis/oas instead`, [
      { path: `body.${GW_EXTENSION}`, message: 'not allowed on import' },
    ]);
  }
}

// One validator per process: it caches compiled schemas, and its validate() runs synchronously
// after its first await, so concurrent calls do not share state. It is only ever given an object:
// a string without newlines would be read as a file name.
let validator: Validator | undefined;

/**
 * Validates against the official OpenAPI 3.x JSON schemas (and local $refs); 400 with the
 * validator's messages and their paths. Swagger 2.0 is refused: the gateway extension is 3.x only.
 */
export async function validateOpenApi(doc: OasDoc): Promise<void> {
  if ('swagger' in doc) {
    throw new BadRequest('Swagger 2.0 documents are not supported; convert the document to OpenAPI 3.x', [
      { path: 'body.swagger', message: 'only OpenAPI 3.x is supported' },
    ]);
  }
  if (typeof doc.openapi !== 'string' || !/^3\.\d+(\.\d+)?$/.test(doc.openapi)) {
    throw new BadRequest('Invalid OpenAPI document: body.openapi: must be an OpenAPI 3.x version such as 3.0.3', [
      { path: 'body.openapi', message: 'must be an OpenAPI 3.x version such as 3.0.3' },
    ]);
  }
  // The validator runs format regexes on these; bound them first (docs/reference/limits.md).
  refuseLongUrlMembers(doc);
  // Loaded on first use, so a cold start does not pay for the validator and its schemas.
  validator ??= new (await import('@seriousme/openapi-schema-validator')).Validator();
  const result = await validator.validate(doc);
  if (result.valid) return;
  const details = toDetails(result.errors);
  const first = details[0] ?? { path: 'body', message: 'does not match the OpenAPI schema' };
  throw new BadRequest(`Invalid OpenAPI document: ${first.path}: ${first.message}`, details.slice(0, 50));
}

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function toDetails(errors: unknown): ErrorDetail[] {
  if (typeof errors === 'string') return [{ path: 'body', message: errors }];
  if (!Array.isArray(errors)) return [];
  return (errors as AjvLikeError[]).map((e) => ({ path: bodyPath(e.instancePath ?? ''), message: describe(e) }));
}

/** JSON pointer `/paths/~1pets/get` -> `body.paths./pets.get`. */
function bodyPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return ['body', ...parts].join('.');
}

function describe(e: AjvLikeError): string {
  const message = e.message ?? 'is invalid';
  const extra = e.params?.additionalProperty ?? e.params?.allowedValues;
  return extra === undefined ? message : `${message} (${Array.isArray(extra) ? extra.join(', ') : String(extra)})`;
}
