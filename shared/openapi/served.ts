/**
 * The text `GET /openapi.json` answers. The document is fixed per build, so a bundled function
 * gets it as a string defined when it was built (infra/bundling.ts `define`): it never loads the
 * route table's schemas nor builds the document at start. Unbundled (the local stage, the tests)
 * it is built on the first request, once.
 */
declare const OPENAPI_TEXT: string | undefined;

let text: string | undefined;

export async function openApiText(): Promise<string> {
  if (typeof OPENAPI_TEXT === 'string') return OPENAPI_TEXT;
  text ??= JSON.stringify((await import('./document')).openApiDocument());
  return text;
}
