import { BadRequest } from '../errors';
import { gwApiGatewaySchema } from '../schemas/api-oas';
import { LIMITS } from '../limits';
import { defaultListenPath } from './listen-paths';
import { GW_EXTENSION } from './oas-document';
import type { OasDoc } from './oas-parse';
import { isPlainObject } from '../lib/plain-object';
import { deepMerge } from './template-merge';
import { isHttpUrl } from './urls';

type Obj = Record<string, unknown>;

/** Query flags of the import and of the streams patch. Absent = leave as is. */
export interface ImportOptions {
  upstreamURL?: string;
  listenPath?: string;
  customDomain?: string;
  allowList?: boolean;
  validateRequest?: boolean;
  mockResponse?: boolean;
  authentication?: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** The reference gateway answers a failed request validation with 422 unless told otherwise. */
const VALIDATION_ERROR_CODE = 422;

/**
 * Key of an operation in `middleware.operations`: its operationId, else the path without the
 * leading slash followed by the upper-case method (`/pets/{id}` GET -> `pets/{id}GET`), exactly as
 * the reference gateway names it.
 */
export function operationKey(path: string, method: string, operation: Obj): string {
  const id = operation.operationId;
  return typeof id === 'string' && id !== '' ? id : path.replace(/^\//, '') + method.toUpperCase();
}

/**
 * The document as stored after import: a copy with every operation's operationId filled in (the
 * gateway binds `middleware.operations` entries by operationId, so generated keys must exist in
 * the document too) and the generated `x-gw-api-gateway`.
 */
export function buildImportedDocument(doc: OasDoc, options: ImportOptions): OasDoc {
  const out = withOperationIds(doc);
  out[GW_EXTENSION] = buildImportedGateway(out, options);
  return out;
}

/**
 * The generated `x-gw-api-gateway` (contract §8). Layers, lowest first: generated defaults, the
 * `x-gw-api-gateway` a template brought into `doc` (see template-merge.ts), the query flags.
 * The result is checked against the extension schema, so a template cannot smuggle in a
 * malformed definition.
 */
export function buildImportedGateway(doc: OasDoc, options: ImportOptions): Obj {
  const info = isPlainObject(doc.info) ? doc.info : {};
  const defaults: Obj = {
    info: { name: typeof info.title === 'string' ? info.title : '', state: { active: true, internal: false } },
    server: { listenPath: { value: defaultListenPath(info.title), strip: true } },
  };
  const gw = deepMerge(defaults, isPlainObject(doc[GW_EXTENSION]) ? doc[GW_EXTENSION] : {}) as Obj;
  const upstream = obj(gw, 'upstream');
  if (options.upstreamURL === undefined && (typeof upstream.url !== 'string' || upstream.url === '')) {
    upstream.url = upstreamFromServers(doc);
  }
  const result = applyFlags(gw, doc, options);
  return checkGateway(result);
}

/**
 * The same flags on a document that already has its `x-gw-api-gateway` (streams PATCH). Returns
 * a new document; operationIds are filled in as on import.
 */
export function applyImportFlags(doc: OasDoc, options: ImportOptions): OasDoc {
  const out = withOperationIds(doc);
  const gw = isPlainObject(out[GW_EXTENSION]) ? (out[GW_EXTENSION] as Obj) : {};
  out[GW_EXTENSION] = checkGateway(applyFlags(gw, out, options));
  return out;
}

/**
 * `servers`, first usable entry (servers[0] in every normal document): variables take their
 * defaults, and the result must be an absolute http(s) URL. Relative server URLs cannot be an
 * upstream. None usable is 400; a URL longer than LIMITS.url, before or after its variables are
 * filled in, is 400 too.
 */
export function upstreamFromServers(doc: OasDoc): string {
  const servers = Array.isArray(doc.servers) ? doc.servers : [];
  for (const [i, server] of servers.entries()) {
    if (!isPlainObject(server) || typeof server.url !== 'string') continue;
    const url = substituteVariables(server.url, isPlainObject(server.variables) ? server.variables : {}, `body.servers.${i}.url`);
    if (url !== undefined && isHttpUrl(url)) return url;
  }
  throw new BadRequest('No upstream URL: give the upstreamURL query parameter, or an absolute http(s) URL in servers[0].url', [
    { path: 'body.servers', message: 'needs an absolute http(s) URL (server variables need defaults)' },
  ]);
}

/**
 * `{name}` replaced by the variable's default; undefined when a variable has none. One forward
 * scan with indexOf, so linear in the URL's length: the regex it replaces (`/\{([^}]+)\}/g`)
 * restarted at every `{` and took 37 s on 200,000 of them. Same matches as that regex: a name
 * runs from a `{` to the next `}` and is not empty (`{}` stays as it is).
 */
export function substituteVariables(url: string, variables: Obj, where = 'body.servers.0.url'): string | undefined {
  const tooLong = (what: string) =>
    new BadRequest(`${where} is longer than ${LIMITS.url} characters${what}`, [{ path: where, message: `longer than ${LIMITS.url} characters${what}` }]);
  if (url.length > LIMITS.url) throw tooLong('');
  let out = '';
  let at = 0;
  for (;;) {
    const open = url.indexOf('{', at);
    if (open < 0) break;
    const close = url.indexOf('}', open + 1);
    if (close < 0) break;
    if (close === open + 1) {
      out += url.slice(at, close + 1);
    } else {
      const v = variables[url.slice(open + 1, close)];
      const value = isPlainObject(v) ? v.default : undefined;
      if (typeof value !== 'string' && typeof value !== 'number') return undefined;
      out += url.slice(at, open) + String(value);
    }
    at = close + 1;
    // Defaults may be long; a few placeholders must not build a huge URL.
    if (out.length > LIMITS.url) throw tooLong(' once its variables are filled in');
  }
  out += url.slice(at);
  if (out.length > LIMITS.url) throw tooLong(' once its variables are filled in');
  return out;
}

function applyFlags(gwIn: Obj, doc: OasDoc, options: ImportOptions): Obj {
  const gw = structuredClone(gwIn);
  if (options.upstreamURL !== undefined) obj(gw, 'upstream').url = options.upstreamURL;
  if (options.listenPath !== undefined) {
    const listen = obj(obj(gw, 'server'), 'listenPath');
    listen.value = options.listenPath;
    if (typeof listen.strip !== 'boolean') listen.strip = true;
  }
  if (options.customDomain !== undefined) {
    const domain = obj(obj(gw, 'server'), 'customDomain');
    domain.enabled = true;
    domain.name = options.customDomain;
  }
  if (options.authentication !== undefined) applyAuthentication(gw, doc, options.authentication);
  if (options.allowList !== undefined || options.validateRequest !== undefined || options.mockResponse !== undefined) {
    applyOperationFlags(gw, doc, options);
  }
  return gw;
}

/**
 * true: authentication on, with an entry per security scheme the document requires (its top-level
 * `security`, else every scheme in components). An apiKey scheme also names where the key is
 * read, as the gateway's token auth expects. false: off, schemes left as they are.
 */
function applyAuthentication(gw: Obj, doc: OasDoc, enable: boolean): void {
  const auth = obj(obj(gw, 'server'), 'authentication');
  auth.enabled = enable;
  if (!enable) return;
  const components = isPlainObject(doc.components) ? doc.components : {};
  const defined = isPlainObject(components.securitySchemes) ? components.securitySchemes : {};
  const required = new Set<string>();
  if (Array.isArray(doc.security)) {
    for (const req of doc.security) if (isPlainObject(req)) for (const name of Object.keys(req)) required.add(name);
  }
  const names = required.size > 0 ? [...required] : Object.keys(defined);
  if (names.length === 0) {
    throw new BadRequest('authentication=true needs security schemes in the document (components.securitySchemes)', [
      { path: 'query.authentication', message: 'the document defines no security scheme' },
    ]);
  }
  const schemes = obj(auth, 'securitySchemes');
  for (const name of names) {
    const entry = isPlainObject(schemes[name]) ? (schemes[name] as Obj) : {};
    entry.enabled = true;
    const def = resolveRef(doc, defined[name], `body.components.securitySchemes.${name}`);
    if (isPlainObject(def) && def.type === 'apiKey' && typeof def.name === 'string') {
      const source = def.in === 'query' || def.in === 'cookie' ? def.in : 'header';
      entry[source] = { ...(isPlainObject(entry[source]) ? entry[source] : {}), enabled: true, name: def.name };
    }
    schemes[name] = entry;
  }
}

/**
 * Per-operation middleware. true switches it on where the rule applies (allowList: every
 * operation; validateRequest: operations with parameters or an application/json body;
 * mockResponse: operations whose responses hold an example or a schema). false switches off an
 * entry that exists and creates none, so it never adds noise to a definition.
 */
function applyOperationFlags(gw: Obj, doc: OasDoc, options: ImportOptions): void {
  const operations = obj(obj(gw, 'middleware'), 'operations');
  for (const { key, path, method, operation, pathItem } of listOperations(doc)) {
    const at = `body.paths.${path}.${method}`;
    const existing = isPlainObject(operations[key]) ? (operations[key] as Obj) : undefined;
    const entry: Obj = existing ?? {};
    setMiddleware(entry, 'allow', options.allowList, true, { enabled: true });
    setMiddleware(entry, 'validateRequest', options.validateRequest, hasValidatableInput(doc, operation, pathItem, at), {
      enabled: true,
      errorResponseCode: VALIDATION_ERROR_CODE,
    });
    setMiddleware(entry, 'mockResponse', options.mockResponse, hasMockableResponse(doc, operation, at), {
      enabled: true,
      fromOASExamples: { enabled: true },
    });
    if (existing || Object.keys(entry).length > 0) operations[key] = entry;
  }
}

function setMiddleware(entry: Obj, name: string, flag: boolean | undefined, applies: boolean, onValue: Obj): void {
  if (flag === undefined || !applies) return;
  const current = isPlainObject(entry[name]) ? (entry[name] as Obj) : undefined;
  if (flag) {
    entry[name] = { ...(deepMerge(current ?? {}, onValue) as Obj), ...keepCode(current) };
  } else if (current) {
    current.enabled = false;
    if (isPlainObject(current.fromOASExamples)) current.fromOASExamples.enabled = false;
  }
}

/** An error code the user already chose survives switching validation on. */
function keepCode(current: Obj | undefined): Obj {
  return current && typeof current.errorResponseCode === 'number' ? { errorResponseCode: current.errorResponseCode } : {};
}

interface OperationRef {
  key: string;
  path: string;
  method: string;
  operation: Obj;
  pathItem: Obj;
}

function listOperations(doc: OasDoc): OperationRef[] {
  const out: OperationRef[] = [];
  const paths = isPlainObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = resolveRef(doc, rawItem, `body.paths.${path}`);
    if (!isPlainObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isPlainObject(operation)) continue;
      out.push({ key: operationKey(path, method, operation), path, method, operation, pathItem });
    }
  }
  return out;
}

function hasValidatableInput(doc: OasDoc, operation: Obj, pathItem: Obj, at: string): boolean {
  const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;
  if (nonEmpty(operation.parameters) || nonEmpty(pathItem.parameters)) return true;
  const body = resolveRef(doc, operation.requestBody, `${at}.requestBody`);
  if (!isPlainObject(body) || !isPlainObject(body.content)) return false;
  return Object.keys(body.content).some((type) => type.split(';')[0]!.trim().toLowerCase() === 'application/json');
}

function hasMockableResponse(doc: OasDoc, operation: Obj, at: string): boolean {
  if (!isPlainObject(operation.responses)) return false;
  for (const [code, raw] of Object.entries(operation.responses)) {
    const response = resolveRef(doc, raw, `${at}.responses.${code}`);
    if (!isPlainObject(response) || !isPlainObject(response.content)) continue;
    for (const media of Object.values(response.content)) {
      if (!isPlainObject(media)) continue;
      if (media.example !== undefined || media.schema !== undefined) return true;
      if (isPlainObject(media.examples) && Object.values(media.examples).some((e) => e !== undefined && e !== null)) {
        return true;
      }
    }
  }
  return false;
}

/**
 * Follows local `#/...` references (bounded, so a cycle cannot loop); others resolve to nothing.
 * `where` names the member holding the first reference: a reference whose percent-escapes do not
 * decode is the client's mistake, 400 there.
 */
function resolveRef(doc: OasDoc, value: unknown, where: string): unknown {
  let current = value;
  for (let hops = 0; hops < 32; hops++) {
    if (!isPlainObject(current) || typeof current.$ref !== 'string') return current;
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return undefined;
    let target: unknown = doc;
    for (const raw of ref.slice(2).split('/')) {
      const part = decodePointerPart(raw, ref, where).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isPlainObject(target) && Object.hasOwn(target, part) ? target[part] : undefined;
    }
    current = target;
  }
  return undefined;
}

function decodePointerPart(raw: string, ref: string, where: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    const path = `${where}.$ref`;
    throw new BadRequest(`${path} holds a malformed percent-escape: ${ref.slice(0, 200)}`, [
      { path, message: 'malformed percent-escape (% must be followed by two hex digits of UTF-8)' },
    ]);
  }
}

function withOperationIds(doc: OasDoc): OasDoc {
  const out = structuredClone(doc);
  const paths = isPlainObject(out.paths) ? out.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isPlainObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isPlainObject(operation) && (typeof operation.operationId !== 'string' || operation.operationId === '')) {
        operation.operationId = operationKey(path, method, operation);
      }
    }
  }
  return out;
}

/** The member `key` of `parent` as an object, created (or replaced, if not an object) when needed. */
function obj(parent: Obj, key: string): Obj {
  const v = parent[key];
  if (isPlainObject(v)) return v;
  const created: Obj = {};
  parent[key] = created;
  return created;
}

function checkGateway(gw: Obj): Obj {
  const r = gwApiGatewaySchema.safeParse(gw);
  if (r.success) return r.data as Obj;
  const details = r.error.issues.map((i) => ({ path: [GW_EXTENSION, ...i.path.map(String)].join('.'), message: i.message }));
  throw new BadRequest(`The resulting ${GW_EXTENSION} is invalid: ${details[0]!.path}: ${details[0]!.message}`, details.slice(0, 50));
}
