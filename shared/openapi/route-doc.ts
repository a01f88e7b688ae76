/**
 * What the OpenAPI document says about a route beyond its entry in the route table: when each
 * status is answered, which headers come with success, rules JSON Schema states that the Zod
 * schemas hold as refinements, and prose. One file per route group under shared/openapi/routes/,
 * loaded only by the document generator, so no function's bundle carries it.
 */
import type { RouteDef } from '../route-def';

type Json = Record<string, unknown>;


export interface RouteDoc {
  /** What the operation does beyond its summary, and the rules JSON Schema cannot state (cross-field, references). */
  description: string;
  /** The 200 answer in a few words ("Webhook created"). */
  success: string;
  /**
   * When this route answers a status of its own (403, 404, 409, 422, 429), or why it answers one
   * the table entry implies (shared/openapi/statuses.ts): the text comes first in that status's
   * description.
   */
  answers?: Partial<Record<number, string>>;
  /** The model of a status's body where it is not the group's envelope, by its name in components.schemas. */
  models?: Partial<Record<number, string>>;
  /** The 200 answer carries ETag (the stored version If-Match repeats). */
  etag?: true;
  /** Further headers of the 200 answer, by their name in components.headers. */
  headers?: readonly string[];
  /** The body's JSON Schema where its Zod schema's cannot say it (a transform that picks between schemas). */
  body?: Json;
  /** JSON Schema the body must also satisfy (a rule the route's service enforces with a 400). */
  bodyRule?: Json;
  /** Descriptions of this route's parameters where the shared ones (shared/openapi/parameters.ts) do not fit. */
  params?: Record<string, string>;
  /** The whole request body object, for routes that parse their own body (bodyKind 'raw'). */
  requestBody?: Json;
}

/** The docs of one route group: an entry for every route, or the group's file does not compile. */
export type GroupDocs<G extends Record<string, RouteDef>> = { readonly [K in keyof G]: RouteDoc };
