/**
 * The OpenAPI 3.1 document of every route of the table (contract §1), generated from the route
 * table: each entry's schemas, statuses and prose (shared/route-groups/). Named models are
 * components referenced everywhere; each operation lists exactly the statuses it answers, with
 * their headers and examples recorded from the e2e run (shared/openapi/examples.json).
 */
import * as z from 'zod';
import { CREDENTIAL_MASK, CREDENTIAL_MEMBERS, CREDENTIAL_NAMES } from '../domain/credential-members';
import { SECRET_WITHHELD } from '../domain/idempotent-reply';
import { routeGroups } from '../routes';
import { ORG_LIMIT_WINDOW_SECONDS, ORG_LIMITS } from '../limits';
import { orgLimitOf, permissionOf, RATE_HEADERS, type RouteDef } from '../route-def';
import { isStoredOpenObject, STORABLE_MAX, storedName } from '../schemas/storable';
import { importedPolicySchema } from '../schemas/policies';
import { JSON_SCHEMAS, NAMED_SCHEMAS } from './components';
import { ENCODINGS } from './compressed';
import { PARAMETER_DOCS } from './parameters';
import { statusesOf } from './statuses';
import { TAGS } from './tags';
import examples from './examples.json';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const SCHEMAS = '#/components/schemas/';
const ref = (name: string): Json => ({ $ref: `${SCHEMAS}${name}` });
const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

const SECURITY: Record<string, Json> = {
  dashboard: { type: 'http', scheme: 'bearer', description: 'A dashboard access key, issued by POST /admin/users (the bare key works too)' },
  gateway: { type: 'apiKey', in: 'header', name: 'X-Gw-Authorization', description: 'The gateway deployment secret' },
  admin: { type: 'apiKey', in: 'header', name: 'Admin-Auth', description: 'The admin deployment secret' },
  developer: { type: 'http', scheme: 'bearer', description: "A developer session of the path's portal, from POST /portal/{orgID}/sessions" },
};

/**
 * The table of credential-bearing members (shared/domain/credential-members.ts), for clients that
 * keep configuration (gwctl writes `${env:NAME}` where it says, and expands references only there).
 */
const CREDENTIAL_MEMBERS_DOC: Json = {
  description:
    'Which members of each kind of object hold credentials. The audit trail shows each as the mask (a changed one as a masked change); ' +
    "webhook reads show a hook's as the mask, and a write sending the mask keeps the stored one. A rule's `at` is a path of member names " +
    "joined by dots from the object's root (`*` any one member, `**` any depth, none included, `[]` each array element, `~name` a member " +
    "whose name matches names[name], ignoring case); `holds`: `value` (the string as a whole), `url` (an absolute URL's userinfo, user " +
    'and password, and the values of query parameters whose names match names.field), `headers` (a map of header name to value, or a ' +
    'list of {name or key, value}: the values of headers whose names match names.field, or every value with values: all), `document` ' +
    '(the rules of another entry apply there). The rules of `*` apply to every kind. Empty strings hold none, except header values ' +
    "where every value counts. Kinds: the audit trail's object types as stored, api-oas (an OAS document) and api-classic (a classic " +
    'definition).',
  mask: CREDENTIAL_MASK,
  names: CREDENTIAL_NAMES,
  kinds: CREDENTIAL_MEMBERS,
};

/** Headers every answer carries (contract §3), then the ones some answers carry. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': { description: 'Id of this request, as the logs name it', required: true, schema: { type: 'string', minLength: 1 } },
  'Cache-Control': { description: 'Answers are never cached', required: true, schema: { const: 'no-store' } },
  'X-Content-Type-Options': { description: 'Browsers must not guess the media type', required: true, schema: { const: 'nosniff' } },
  ETag: {
    description: 'The stored version; If-Match repeats it to update or delete only that version',
    required: true,
    schema: { type: 'string', pattern: '^"\\d+"$' },
  },
  'Idempotent-Replayed': {
    description: 'Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { const: 'true' },
  },
  'Idempotent-Secrets-Withheld': {
    description:
      `On a replay (Idempotent-Replayed), the members that held a secret shown once, comma-separated: the ` +
      `replay answers each as "${SECRET_WITHHELD}", as the secret is never kept; rotate it if the first ` +
      `answer was lost`,
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods the path takes', required: true, schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
  'X-Gw-Base-Api-Id': { description: 'The base API, when this API is a version of one', schema: { type: 'string' } },
  'Content-Encoding': {
    description: "How the body is compressed, chosen by the request's Accept-Encoding; absent when it is not",
    schema: { enum: [...ENCODINGS] },
  },
  Vary: { description: "The body depends on the request's Accept-Encoding", required: true, schema: { const: 'Accept-Encoding' } },
  'Retry-After': {
    description: "Whole seconds until the organisation's limit window ends (1-60)",
    required: true,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  },
  'Retry-After-Check': {
    description: 'Whole seconds until the window that refused ends (the quota window, or the rate window of `per` seconds); at least 1',
    required: true,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  },
  'X-RateLimit-Limit': { description: "The key's quota_max (absent when the quota is unlimited)", schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the quota window after this one (absent when the quota is unlimited)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'X-RateLimit-Reset': {
    description: 'When the quota window renews, Unix epoch seconds (absent when the quota is unlimited)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'X-Gw-Api-Id': { description: 'The API the request was found to be for', required: true, schema: { type: 'string' } },
  'X-Gw-Path': {
    description:
      'The path the decision was made on, in normal form (contract §13: dot segments removed, unreserved characters decoded, ' +
      'repeated slashes merged): the path to send upstream, so the upstream acts on what was decided',
    required: true,
    schema: { type: 'string', pattern: '^/' },
  },
  'X-Gw-Api-Path': {
    description:
      'The decided path after the listen path of the API (`/` for the listen path itself), when the API was found by its listen ' +
      'path or the gateway named it (X-Gw-Listen-Path): the path to send upstream for an API that strips its listen path',
    schema: { type: 'string', pattern: '^/' },
  },
  'X-Gw-Key-Hash': {
    description: "The key's hash (SHA-256 hex of the key id): pass it upstream to tell callers apart without the key",
    required: true,
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  'X-Gw-Org-Id': { description: "The key's organisation", required: true, schema: { type: 'string' } },
  'X-Gw-Quota-Remaining': {
    description: 'Requests left in the quota window after this one; -1 when unlimited',
    required: true,
    schema: { type: 'string', pattern: '^-?[0-9]+$' },
  },
};
const EVERY_ANSWER = ['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options'];
const everyAnswerHeaders = (): Json => Object.fromEntries(EVERY_ANSWER.map((h) => [h, headerRef(h)]));

/**
 * Answers to requests no operation takes (contract §3), in the envelope of the path's prefix:
 * they have no operation to be listed under, so the document names them here and in its info.
 */
const OUTSIDE_OPERATIONS: Record<string, Json> = {
  UnknownPath: {
    description: '404: no route has this path (in the envelope of its prefix: GatewayError under /gw, DashboardError elsewhere)',
    headers: everyAnswerHeaders(),
    content: { 'application/json': { schema: { oneOf: [ref('DashboardError'), ref('GatewayError')] } } },
  },
  MethodNotAllowed: {
    description: '405: the path exists but not with this method; Allow names the methods it takes',
    headers: { ...everyAnswerHeaders(), Allow: headerRef('Allow') },
    content: { 'application/json': { schema: { oneOf: [ref('DashboardError'), ref('GatewayError')] } } },
  },
};

/** The group's error model (contract §3). */
const errorModel = (group: RouteDef['group']) => (group === 'gateway' ? 'GatewayError' : 'DashboardError');

type Route = RouteDef & { tag: string };

function allRoutes(): Route[] {
  return Object.entries(routeGroups).flatMap(([tag, group]) => Object.values(group as Record<string, RouteDef>).map((r) => ({ ...r, tag })));
}

/**
 * Every schema as JSON Schema, named ones as components: one registry holds the named models
 * and each operation's own schemas, converted once per direction (requests read the input side,
 * answers the output side), so shared schemas become $refs whatever route uses them.
 */
class SchemaSet {
  private readonly names = new Map<z.ZodType, string>();
  private readonly anonymous: Record<Io, Map<z.ZodType, string>> = { input: new Map(), output: new Map() };
  private converted: Record<Io, Record<string, Json>> | undefined;

  constructor() {
    for (const [name, schema] of NAMED_SCHEMAS) {
      if (this.names.has(schema)) throw new Error(`${name} names a schema already named ${this.names.get(schema)}`);
      this.names.set(schema, name);
    }
  }

  /** A placeholder for the named model `name` in `io`, resolved by resolve(). */
  named(name: string, io: Io): Json {
    if (![...this.names.values()].includes(name)) throw new Error(`${name} is no named model (shared/openapi/components.ts)`);
    return { $ref: `${io}:${name}` };
  }

  /** A placeholder for `schema` in `io`, resolved by resolve(). */
  use(schema: z.ZodType, io: Io): Json {
    const named = this.names.get(schema);
    if (named) return { $ref: `${io}:${named}` };
    const ids = this.anonymous[io];
    let id = ids.get(schema);
    if (!id) ids.set(schema, (id = `~${ids.size}`));
    return { $ref: `${io}:${id}` };
  }

  private convert(): Record<Io, Record<string, Json>> {
    const out = {} as Record<Io, Record<string, Json>>;
    for (const io of ['input', 'output'] as const) {
      const registry = z.registry<{ id: string }>();
      for (const [schema, id] of this.names) registry.add(schema, { id });
      for (const [schema, id] of this.anonymous[io]) registry.add(schema, { id });
      const { schemas } = z.toJSONSchema(registry, {
        io,
        target: 'draft-2020-12',
        // Transforms (query booleans, the oas write body) have no JSON Schema of their own; their
        // input side is what a client sends, and an answer never holds one.
        unrepresentable: 'any',
        uri: (id) => `${io}:${id}`,
        override: (ctx) => {
          const js = ctx.jsonSchema as Json;
          if (ctx.zodSchema === importedPolicySchema) {
            delete js.$ref;
            Object.assign(js, structuredClone(IMPORTED_POLICY));
          }
          // Names a stored body's records declare: the model says them (its values: the body's UnstorableValue rule).
          if (ctx.zodSchema === storedName) {
            for (const k of Object.keys(js)) delete js[k];
            Object.assign(js, ref('StoredMemberName'));
            return;
          }
          refine(js, io);
          if (isStoredOpenObject(ctx.zodSchema)) js.propertyNames = ref('StoredMemberName');
        },
      }) as { schemas: Record<string, Json> };
      for (const s of Object.values(schemas)) {
        delete s.$schema;
        delete s.$id;
      }
      out[io] = schemas;
    }
    return out;
  }

  /**
   * Replaces the placeholders in `doc` by component refs or inline schemas and answers the
   * components it references: a model whose request and answer forms differ is `<Name>Input` on
   * the request side.
   */
  resolve(doc: Json): Record<string, Json> {
    const c = (this.converted ??= this.convert());
    const componentName = (io: Io, name: string) =>
      io === 'input' && JSON.stringify(c.input[name]) !== JSON.stringify(c.output[name]) && usedOutput.has(name) ? `${name}Input` : name;
    // Which named models each side references, through other named models too.
    const usedOutput = new Set<string>();
    const components: Record<string, Json> = {};
    const pending: Array<[Io, string]> = [];
    const visit = (node: unknown, mark: (io: Io, id: string) => void): void => {
      if (Array.isArray(node)) node.forEach((n) => visit(n, mark));
      else if (node && typeof node === 'object') {
        const o = node as Json;
        if (typeof o.$ref === 'string' && /^(input|output):/.test(o.$ref)) {
          const [io, id] = o.$ref.split(':') as [Io, string];
          mark(io, id);
        }
        Object.values(o).forEach((v) => visit(v, mark));
      }
    };
    const seen = new Set<string>();
    const collect = (io: Io, id: string) => {
      if (id.startsWith('~')) return visit(c[io][id], collect);
      if (seen.has(`${io}:${id}`)) return;
      seen.add(`${io}:${id}`);
      if (io === 'output') usedOutput.add(id);
      pending.push([io, id]);
      visit(c[io][id], collect);
    };
    visit(doc, collect);
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== 'object') return node;
      const o = node as Json;
      if (typeof o.$ref === 'string' && /^(input|output):/.test(o.$ref)) {
        const [io, id] = o.$ref.split(':') as [Io, string];
        const { $ref: _r, ...rest } = o;
        const target = id.startsWith('~') ? (rewrite(c[io][id]) as Json) : ref(componentName(io, id));
        return Object.keys(rest).length ? { allOf: [target], ...(rewrite(rest) as Json) } : target;
      }
      return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, rewrite(v)]));
    };
    for (const [io, id] of pending) components[componentName(io, id)] = rewrite(c[io][id]) as Json;
    Object.assign(doc, rewrite(doc));
    return components;
  }
}

/**
 * An imported policy: a policy, or an exported one whose blank id the service replaces by its
 * `_id` before checking it (a preprocess, which Zod's conversion cannot state): ExportedPolicy
 * holds every rule of a policy, so the document takes no body the import refuses for them.
 */
const IMPORTED_POLICY: Json = { anyOf: [{ $ref: 'input:Policy' }, { $ref: 'input:ExportedPolicy' }] };

/**
 * What every generated schema also says: no object takes a __proto__ member (the parser refuses
 * it everywhere), and a stored number is never in the gap around zero storage cannot hold.
 */
function refine(s: Json, io: Io): void {
  if (s.type === 'object' || 'additionalProperties' in s || 'properties' in s) {
    const names = s.propertyNames as Json | undefined;
    // StoredMemberName refuses __proto__ itself.
    if (names?.$ref !== ref('StoredMemberName').$ref)
      s.propertyNames = names && Object.keys(names).some((k) => k !== 'type') ? { allOf: [names, ref('SafePropertyName')] } : ref('SafePropertyName');
  }
  // A request member with a default is optional: the default goes to the description, since
  // generated clients (openapi-typescript's defaultNonNullable) would make it a required member.
  if (io === 'input' && 'default' in s) {
    s.description = [s.description, `Default: ${JSON.stringify(s.default)}.`].filter(Boolean).join(' ');
    delete s.default;
  }
  if (io === 'input' && s.type === 'number' && typeof s.maximum === 'number' && s.maximum <= STORABLE_MAX && typeof s.minimum === 'number') {
    s.not = ref('TinyNumber');
  }
}

function parameters(r: Route, set: SchemaSet): Json[] {
  const out: Json[] = [];
  const describe = (name: string) => r.doc?.params?.[name] ?? PARAMETER_DOCS[name] ?? '';
  for (const [where, schema] of [
    ['path', r.params],
    ['query', r.query],
  ] as const) {
    if (!schema) continue;
    const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as {
      properties?: Record<string, Json>;
      required?: string[];
    };
    const shape = (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
    for (const name of Object.keys(js.properties ?? {})) {
      out.push({
        name,
        in: where,
        description: describe(name),
        required: where === 'path' || (js.required ?? []).includes(name),
        schema: set.use(shape[name]!, 'input'),
      });
    }
  }
  if (r.doc?.freeQuery) {
    out.push({
      name: 'query',
      in: 'query',
      description: r.doc.freeQuery,
      required: false,
      style: 'form',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
  }
  if (r.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: r.secrets?.length
        ? `Any 1-255 visible ASCII characters: a retry with the same key and request answers the first answer ` +
          `again and creates nothing (kept 24 hours), except that the secret it showed ` +
          `(${r.secrets.join(', ')}) is withheld: a secret is shown once, never again`
        : 'Any 1-255 visible ASCII characters: a retry with the same key and request answers the first answer again and creates nothing (kept 24 hours)',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    });
  }
  if (r.etag) {
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'An ETag this service sent, a comma-separated list of them (up to 20), or *: the change applies only ' +
        'to a version the header names, compared strongly (a weak W/ tag never matches), or with * to any ' +
        'existing version; 412 otherwise. Without it the last write wins',
      schema: { type: 'string', pattern: '^\\s*(\\*|(W/)?("\\d{1,15}"|\\d{1,15})(\\s*,\\s*(W/)?("\\d{1,15}"|\\d{1,15})){0,19})\\s*$' },
    });
  }
  return out;
}

interface Recorded {
  request?: unknown;
  responses?: Record<string, unknown>;
}

function requestBody(r: Route, set: SchemaSet): Json | undefined {
  if (r.doc?.requestBody) return r.doc.requestBody;
  if (!r.body) return undefined;
  const base = r.doc?.body ?? set.use(r.body, 'input');
  const schema = r.doc?.bodyRule ? { allOf: [base, r.doc.bodyRule] } : base;
  const example = (examples as Record<string, Recorded>)[r.name]?.request;
  const types = r.contentTypes ?? ['application/json'];
  return { required: true, content: Object.fromEntries(types.map((t) => [t, { schema, ...(example !== undefined ? { example } : {}) }])) };
}

function responses(r: Route, set: SchemaSet): Json {
  const recorded = (examples as Record<string, Recorded>)[r.name]?.responses ?? {};
  const out: Json = {};
  for (const [status, when] of statusesOf(r)) {
    const headers = everyAnswerHeaders();
    if (status === 200) {
      for (const h of r.successHeaders ?? []) headers[h] = headerRef(h);
      if (r.idempotent) headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
      if (r.idempotent && r.secrets?.length) headers['Idempotent-Secrets-Withheld'] = headerRef('Idempotent-Secrets-Withheld');
    }
    if (status === 429 && orgLimitOf(r)) headers['Retry-After'] = headerRef('Retry-After');
    if (r.refusalHeaders && status === 429) for (const h of RATE_HEADERS) headers[h] = headerRef(h);
    if (r.refusalHeaders && status === 429) headers['Retry-After'] = headerRef('Retry-After-Check');
    const model = r.doc?.models?.[status];
    // A route's own 400 and 401 models (the external authorization's refusal) sit beside the
    // group's: a request without the group's credential, or with input its schemas refuse, is
    // answered by the credential check or the validation first, in the group's envelope.
    const refusal =
      model && (status === 401 || status === 400)
        ? { anyOf: [set.named(model, 'output'), set.named(errorModel(r.group), 'output')] }
        : set.named(model ?? errorModel(r.group), 'output');
    const schema = status === 200 ? set.use(r.result, 'output') : refusal;
    const example = recorded[String(status)];
    out[String(status)] = {
      description: when,
      headers,
      ...(status === 200 && r.noContent
        ? {}
        : {
            content: {
              'application/json': { schema, ...(example !== undefined ? { example } : {}) },
              ...(status === 200 && r.csv ? { 'text/csv': { schema: { type: 'string', description: 'RFC 4180, a header line first' } } } : {}),
            },
          }),
    };
  }
  return out;
}

/** The first sentence-like clause of a table summary: OpenAPI's short summary. */
function shortSummary(summary: string): string {
  const first = summary.split(/;|: (?=[a-z0-9])/)[0]!.trim();
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/** What a dashboard route needs beyond its credential: its permission, and the limit it spends (contract §9, docs/reference/limits.md). */
function gate(r: Route): string {
  const p = permissionOf(r);
  if (!p) return '';
  const limit = orgLimitOf(r);
  return (
    `\n\nNeeds \`${p.level}\` on \`${p.group}\` in the user's \`user_permissions\`${p.level === 'read' ? ' (or `write`)' : ''}, else 403.` +
    (limit
      ? ` Spends one unit of the organisation's \`${limit}\` limit (${ORG_LIMITS[limit].perWindow} per ` +
        `${ORG_LIMIT_WINDOW_SECONDS} s by default), else 429 with Retry-After.`
      : '')
  );
}

function operation(r: Route, set: SchemaSet): Json {
  const body = requestBody(r, set);
  const permission = permissionOf(r);
  return {
    operationId: r.name,
    summary: shortSummary(r.summary),
    description: `${r.summary}.\n\n${r.description}${gate(r)}`,
    ...(permission ? { 'x-permission': permission } : {}),
    tags: [r.tag],
    security: r.group === 'public' ? [] : [{ [r.group]: [] }],
    parameters: parameters(r, set),
    ...(body ? { requestBody: body } : {}),
    responses: responses(r, set),
  };
}

const INFO_DESCRIPTION = [
  'Management interface of an API gateway and its dashboard. Every path is served under one base URL; the credential depends on the prefix: ',
  '`/api/...` takes a dashboard access key (`Authorization: Bearer <key>`), `/gw/...` the gateway secret (`X-Gw-Authorization`), ',
  '`/admin/...` the admin secret (`Admin-Auth`).',
  '',
  "A dashboard operation also needs the user's `user_permissions` on its object group: `x-permission` names the group and the level ",
  '(`read`: read or write; `write`: write), else 403. Absent or `{}` permissions, or `"IsAdmin": "admin"`, grant every group; otherwise ',
  "a group not listed is `deny`. Each dashboard write spends one unit of its organisation's limit per 60-second window (the webhook ",
  'test and redelivery a tighter one), else 429 with `Retry-After`; requests refused before (credential, permission, validation) spend nothing.',
  '',
  'Every answer is JSON and carries `X-Request-Id`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. Errors come in the ',
  "envelope of the path's prefix: `DashboardError` for `/api` and `/admin`, `GatewayError` for `/gw`. Besides the statuses each ",
  'operation lists, an unknown path answers 404 and a known path asked with another method 405 with an `Allow` header naming the ',
  'methods it takes, both in the same envelope.',
  '',
  'Every body is refused with 400 when it is nested deeper than 64 levels or holds a `__proto__` member or a `constructor` member ',
  'holding `prototype`, at any depth; numbers must be finite, and numbers that are stored must fit storage: within ±(2^53−1) and ',
  'zero or at least 1e-130 in magnitude (the schemas state both where they can).',
].join('\n');

/** The methods an ANY route is listed under. */
const ANY_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/**
 * The methods a route is listed under: OpenAPI has no ANY, so an ANY route's operation is listed
 * under each method, its operationId suffixed after the first (`get`).
 */
export function documentMethods(method: string): string[] {
  return method === 'ANY' ? ANY_METHODS : [method.toLowerCase()];
}

/** The document's path of a route: OpenAPI has no greedy `{proxy+}`; it is `{proxy}`, whose value may hold slashes. */
export function documentPath(path: string): string {
  return path.replace(/\{([A-Za-z]+)\+\}/g, '{$1}');
}

let cached: Json | undefined;

/** OpenAPI 3.1 document of every route of the table. */
export function openApiDocument(): Json {
  if (cached) return cached;
  const set = new SchemaSet();
  const paths: Record<string, Json> = {};
  for (const r of allRoutes()) {
    documentMethods(r.method).forEach((m, i) => {
      const op = operation(r, set);
      (paths[documentPath(r.path)] ??= {})[m] = i === 0 ? op : { ...op, operationId: `${r.name}_${m}` };
    });
  }
  // The models written in JSON Schema may reference named Zod models: resolved with the paths.
  const doc: Json = { paths, direct: structuredClone(JSON_SCHEMAS) };
  const generated = set.resolve(doc);
  // The models written in JSON Schema that anything references, through one another too.
  const written = doc.direct as Json;
  const direct: Json = {};
  let used = JSON.stringify([doc.paths, generated]);
  for (let added = true; added; ) {
    added = false;
    for (const [name, schema] of Object.entries(written)) {
      if (name in direct || !used.includes(`"${SCHEMAS}${name}"`)) continue;
      direct[name] = schema;
      used += JSON.stringify(schema);
      added = true;
    }
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Gateway management service',
      version: '0.1.0',
      description: INFO_DESCRIPTION,
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description: 'The local stage (npm start)',
        variables: { host: { default: '127.0.0.1', description: 'HOST of npm start' }, port: { default: '8080', description: 'PORT of npm start' } },
      },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
        description: 'A deployed stage (the HTTP API of the stack)',
        variables: {
          apiId: { default: 'abc123defg', description: "Id of the stage's HTTP API (stack output)" },
          region: { default: 'us-east-1', description: 'AWS region of the stage' },
        },
      },
    ],
    tags: TAGS,
    'x-credential-members': CREDENTIAL_MEMBERS_DOC,
    paths: doc.paths,
    components: {
      schemas: { ...generated, ...direct },
      responses: OUTSIDE_OPERATIONS,
      headers: HEADERS,
      securitySchemes: SECURITY,
    },
  };
  return cached;
}
