import { importUrlOf, parseFetchedDocument, parseOasBody, rejectGatewayExtension, type OasDoc } from '../domain/oas-parse';

/**
 * Name of the test-only allowance to fetch import documents from loopback. Read on every call so
 * a test can switch it; fetchDocument ignores it unless the process runs under a test runner,
 * so no production configuration can turn it on.
 */
export const TEST_LOOPBACK_ENV = 'GW_TEST_ALLOW_LOOPBACK_IMPORT';

/**
 * The document of an import request: the body parsed by Content-Type (415 for other types), or,
 * for a `{"url": ...}` body, the document fetched from there (SSRF-safe; every refusal is 400).
 * A document carrying x-gw-api-gateway is 400 either way.
 */
export async function importDocumentOf(rawBody: string | undefined, contentType: string | undefined): Promise<OasDoc> {
  const parsed = parseOasBody(rawBody ?? '', contentType);
  const url = importUrlOf(parsed);
  let doc = parsed;
  if (url !== undefined) {
    // The fetcher (and the address parser it checks with) loads for an import by URL only.
    const { fetchDocument } = await import('./fetch-document');
    const fetched = await fetchDocument(url, { allowLoopbackForTests: process.env[TEST_LOOPBACK_ENV] === '1' });
    doc = parseFetchedDocument(fetched.body, fetched.contentType);
  }
  rejectGatewayExtension(doc);
  return doc;
}
