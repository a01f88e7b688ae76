/**
 * The OpenAPI document's compressed forms. It is about 1 MB as JSON and about 45 KB as Brotli
 * (70 KB as gzip): a function answering the plain text spends most of its time moving bytes
 * (BENCHMARKS.md "routes"). The same settings compress it when the function is built
 * (infra/bundling.ts) and, unbundled, on the first request that asks.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Brotli quality 9: within 7 % of the smallest (11) at a tenth of its time (40 ms against 470 for the document). */
export function compress(text: string, encoding: Encoding): Buffer {
  const bytes = Buffer.from(text);
  return encoding === 'br'
    ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    : gzipSync(bytes, { level: 9 });
}
