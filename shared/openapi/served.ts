/**
 * The bytes `GET /openapi.json` answers. The document is fixed per build, so a bundled function
 * has it as files beside its code, plain and compressed (infra/bundling.ts writes them, `define`
 * names the plain one), read on the first request that asks for each: the function never loads
 * the route table's schemas, builds the document, nor parses a megabyte of it as code at start.
 * Unbundled (the local stage, the tests) it is built and compressed on the first request, once.
 */
import { readFile } from 'node:fs/promises';
import { compress, type Encoding } from './compressed';

declare const OPENAPI_FILE: string | undefined;

let text: Promise<string> | undefined;
const encoded = new Map<Encoding, Promise<string>>();

export function openApiText(): Promise<string> {
  text ??=
    typeof OPENAPI_FILE === 'string'
      ? readFile(new URL(OPENAPI_FILE, import.meta.url), 'utf8')
      : import('./document').then((d) => JSON.stringify(d.openApiDocument()));
  return text;
}

/** The document compressed with `encoding`, as base64 (the form a Lambda answer carries bytes in). */
export function openApiEncoded(encoding: Encoding): Promise<string> {
  let hit = encoded.get(encoding);
  if (!hit) {
    hit =
      typeof OPENAPI_FILE === 'string'
        ? readFile(new URL(`${OPENAPI_FILE}.${encoding}`, import.meta.url)).then((b) => b.toString('base64'))
        : openApiText().then((t) => compress(t, encoding).toString('base64'));
    encoded.set(encoding, hit);
  }
  return hit;
}
