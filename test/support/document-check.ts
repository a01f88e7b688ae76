/**
 * The OpenAPI document as a client reads it: openapi-backend's router and its Ajv validators (on
 * Ajv's draft 2020-12 dialect, the one the document declares) over the document the service
 * serves. The traffic check (test/after/openapi-traffic.test.ts) and the hardening walks ask it
 * whether the document admits a request.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';
import { openApiDocument } from '../../shared/openapi/document';
import { routeList } from '../../shared/routes';

export const ajvFor = (opts: object) => {
  const ajv = new Ajv2020({ ...opts, strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
};

export const documentApi = new OpenAPIBackend({
  definition: structuredClone(openApiDocument()) as unknown as Document,
  // quick: no check of the document itself (its own is for OpenAPI 3.0; the 3.1 schema and the
  // linter check it in test/e2e/openapi.test.ts), validators compiled as they are needed.
  quick: true,
  customizeAjv: (_default, opts) => ajvFor(opts) as never,
});

/** Literal prefixes of the routes with a greedy `{proxy+}`, whose document path takes one segment. */
const greedyPrefixes = routeList.filter((r) => /\{[A-Za-z]+\+\}$/.test(r.path)).map((r) => r.path.replace(/\{[A-Za-z]+\+\}$/, ''));

/** The path as the document's router matches it: a greedy parameter's slashes escaped into one segment. */
export function documentPathOf(pathname: string): string {
  const prefix = greedyPrefixes.find((p) => pathname.startsWith(p) && pathname.length > p.length);
  return prefix ? prefix + encodeURIComponent(pathname.slice(prefix.length)) : pathname;
}

/**
 * The operation the document has for a method on a path, as OpenAPI matches it: a concrete path
 * before the templated ones, so a method the concrete path lacks is no operation (405), never the
 * templated sibling's (`GET /gw/apis/oas` is not `GET /gw/apis/{apiID}`).
 */
export function operationOf(method: string, pathname: string, query: Record<string, string>): Operation | undefined {
  const path = documentPathOf(pathname);
  const concrete = documentApi.definition.paths?.[path] as Record<string, unknown> | undefined;
  if (concrete && concrete[method.toLowerCase()] === undefined) return undefined;
  return documentApi.router.matchOperation({ method, path, headers: {}, query }) as Operation | undefined;
}

let ready: Promise<unknown> | undefined;

/** The operation the document has for this request, if any. */
async function documentOperation(method: string, url: string): Promise<Operation | undefined> {
  await (ready ??= documentApi.init());
  const u = new URL(url, 'http://stage');
  return operationOf(method, u.pathname, Object.fromEntries(u.searchParams));
}

/**
 * Why the document refuses a JSON request (none: it admits it), as readable lines. A request no
 * operation takes is refused.
 */
export async function documentRefusal(method: string, url: string, body: unknown, contentType = 'application/json'): Promise<string[]> {
  const operation = await documentOperation(method, url);
  if (!operation) return ['no operation takes it'];
  const u = new URL(url, 'http://stage');
  const result = documentApi.validator.validateRequest(
    { method, path: documentPathOf(u.pathname), query: Object.fromEntries(u.searchParams), headers: { 'content-type': contentType }, body },
    operation,
  );
  return (result.errors ?? []).map((e) => `request${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}
