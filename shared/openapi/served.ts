/**
 * The text `GET /openapi.json` answers. The document is fixed per build, so a bundled function
 * has it as a file beside its code (infra/bundling.ts writes it, `define` names it), read on the
 * first request: the function never loads the route table's schemas, builds the document, nor
 * parses a megabyte of it as code at start. Unbundled (the local stage, the tests) it is built on
 * the first request, once.
 */
import { readFile } from 'node:fs/promises';

declare const OPENAPI_FILE: string | undefined;

let text: string | undefined;

export async function openApiText(): Promise<string> {
  text ??=
    typeof OPENAPI_FILE === 'string'
      ? await readFile(new URL(OPENAPI_FILE, import.meta.url), 'utf8')
      : JSON.stringify((await import('./document')).openApiDocument());
  return text;
}
