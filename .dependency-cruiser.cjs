/**
 * The rules of the house (docs/developing/layout.md), checked by `npm test` (test/unit/dependency-rules.test.ts)
 * and by `npx depcruise --config .dependency-cruiser.cjs shared functions infra scripts bench test`.
 *
 * Layers, bottom up. A layer may import the ones below it, never the ones above:
 *   neutral      shared/{errors,limits,parsing,ip-addresses}.ts and shared/lib/ (generic helpers: hashing,
 *                bounded concurrency, caches, list slices): no project imports beyond each other
 *   schemas      shared/schemas/: the contract's Zod schemas and input rules
 *   domain       shared/domain/: pure rules, no I/O
 *   platform     shared/{config,secrets,request-context}.ts: the process's settings, secrets and the work being done
 *   observability shared/observability/: the logger, metrics and tracer of every layer (AWS
 *                Powertools), set up once per invocation; above the settings and the work context
 *                (whose request id and route every line carries), below everything that logs
 *                (store, net, services, http, handlers of event sources)
 *   store        shared/store/db/ (the table's plumbing) and shared/store/<resource>.ts
 *   net          shared/net/: outbound HTTP (import by URL)
 *   services     shared/services/<resource>.ts: the rules and transactions of each resource
 *   route table  shared/routes.ts, route-def.ts, route-builders.ts, route-groups/: pure data
 *   http         shared/http/: createHandler and its middlewares, envelopes, the response finaliser
 *   openapi      shared/openapi/: the OpenAPI document, generated from the route table (beside http:
 *                neither imports the other)
 *   functions    functions/<resource>/<verb>.ts: one handler per route
 *   infra        infra/: the CDK app and the local stages
 *
 * Beside the layers, tools/ (gwctl) is a client of the service's OpenAPI document alone: it
 * imports nothing of the service, so what it can do is what the document promises.
 */
const NEUTRAL = '^shared/(errors|limits|parsing|ip-addresses)[.]ts$|^shared/lib/';
const SCHEMAS = '^shared/schemas/';
const DOMAIN = '^shared/domain/';
const PLATFORM = '^shared/(config|secrets|request-context)[.]ts$';
const OBSERVABILITY = '^shared/observability/';
const STORE = '^shared/store/';
const STORE_DB = '^shared/store/db/';
const NET = '^shared/net/';
const SERVICES = '^shared/services/';
const ROUTE_TABLE = '^shared/(routes|route-def|route-builders)[.]ts$|^shared/route-groups/';
const HTTP = '^shared/http/';
const OPENAPI = '^shared/openapi/';
const FUNCTIONS = '^functions/';
const INFRA = '^infra/';
const TOOLS = '^tools/';
// Unanchored: a module of the AWS SDK wherever node_modules sits.
const AWS_SDK = 'node_modules/@aws-sdk/';

const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

module.exports = {
  forbidden: [
    forbid('no-circular', 'An import circle: the modules on it cannot be understood or changed one at a time.', {}, { circular: true }),
    forbid(
      'neutral-imports-nothing',
      'Errors, limits, parsing, IP rules and the generic helpers are used by every layer, so they import no module of the project beyond each other.',
      { path: NEUTRAL },
      { path: '^(shared|functions|infra)/', pathNot: NEUTRAL },
    ),
    forbid(
      'schemas-below-domain',
      'The schemas are the contract; the domain reads them, never the other way round.',
      { path: SCHEMAS },
      { path: [DOMAIN, PLATFORM, OBSERVABILITY, STORE, NET, SERVICES, ROUTE_TABLE, HTTP, OPENAPI, FUNCTIONS, INFRA] },
    ),
    forbid(
      'domain-is-pure',
      'Domain code is pure logic: no http, no storage, no services, no settings, no outbound calls.',
      { path: DOMAIN },
      { path: [PLATFORM, OBSERVABILITY, STORE, NET, SERVICES, ROUTE_TABLE, HTTP, OPENAPI, FUNCTIONS, INFRA, AWS_SDK] },
    ),
    forbid(
      'observability-is-platform',
      'The logger, metrics and tracer serve every layer, so they import only the settings, the work context and their own modules.',
      { path: OBSERVABILITY },
      { path: ['^(shared|functions|infra)/'], pathNot: [OBSERVABILITY, '^shared/(config|request-context)[.]ts$'] },
    ),
    forbid(
      'store-below-services',
      'The store answers access patterns; rules, http and handlers sit above it.',
      { path: STORE },
      { path: [NET, SERVICES, ROUTE_TABLE, HTTP, OPENAPI, FUNCTIONS, INFRA] },
    ),
    forbid(
      'store-db-knows-no-resource',
      "The table's plumbing serves every resource and knows none of them.",
      { path: STORE_DB },
      { path: STORE, pathNot: STORE_DB },
    ),
    forbid(
      'net-is-an-adapter',
      'Outbound HTTP is a plain adapter under the services.',
      { path: NET },
      { path: [STORE, SERVICES, ROUTE_TABLE, HTTP, OPENAPI, FUNCTIONS, INFRA] },
    ),
    forbid(
      'services-below-http',
      'Services hold the rules; they know nothing of requests, envelopes or handlers.',
      { path: SERVICES },
      { path: [ROUTE_TABLE, HTTP, OPENAPI, FUNCTIONS, INFRA, AWS_SDK] },
    ),
    forbid(
      'route-table-is-data',
      'The route table is pure data (CDK synth reads it): schemas and its own builders only.',
      { path: ROUTE_TABLE },
      { path: [DOMAIN, PLATFORM, OBSERVABILITY, STORE, NET, SERVICES, HTTP, OPENAPI, FUNCTIONS, INFRA] },
    ),
    forbid(
      'http-uses-services',
      'http reaches storage only through services, and never loads handlers, infrastructure or the document generator.',
      { path: HTTP },
      { path: [STORE, NET, OPENAPI, FUNCTIONS, INFRA, AWS_SDK] },
    ),
    forbid(
      'openapi-reads-the-table',
      'The document is generated from the route table and its schemas: it reads no storage, settings, services or requests.',
      { path: OPENAPI },
      { path: [PLATFORM, OBSERVABILITY, STORE, NET, SERVICES, HTTP, FUNCTIONS, INFRA, AWS_SDK] },
    ),
    forbid(
      'handlers-use-http-and-services',
      'A handler validates (http), calls a service and answers: no storage, domain, settings or AWS SDK of its own.',
      { path: FUNCTIONS },
      { path: [DOMAIN, PLATFORM, STORE, NET, INFRA, AWS_SDK, '^shared/routes[.]ts$'] },
    ),
    forbid(
      'handler-imports-its-own-group',
      'A function builds only its own route group at cold start: functions/<group>/ imports shared/route-groups/<group>.ts only.',
      { path: '^functions/([^/]+)/' },
      { path: '^shared/route-groups/', pathNot: '^shared/route-groups/$1[.]ts$' },
    ),
    forbid(
      'tools-are-clients-of-the-document',
      'gwctl talks to the service through its OpenAPI document (generated types, HTTP), never through its code.',
      { path: TOOLS },
      { path: ['^shared/', FUNCTIONS, INFRA] },
    ),
    forbid(
      'shared-never-imports-infra',
      'shared/ is what the functions ship; the CDK app and the local stages are never part of it.',
      { path: '^shared/' },
      { path: INFRA },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stays in the graph (not followed): the AWS SDK rules match its modules there.
    exclude: { path: '^(infra/local/lambda-node|bench/[.]out|cdk[.]out)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
