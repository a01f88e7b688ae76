import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * Large definitions (up to 5 MB of JSON) are gzipped and split, so no stored item nears
 * DynamoDB's 400 KB limit. OpenAPI JSON typically shrinks 5-15x.
 */
export function encodeChunks(value: unknown, maxChunkBytes = 350_000): Buffer[] {
  if (!Number.isInteger(maxChunkBytes) || maxChunkBytes < 1) throw new RangeError('maxChunkBytes must be a positive integer');
  const packed = gzipSync(Buffer.from(JSON.stringify(value)), { level: 6 });
  const parts: Buffer[] = [];
  for (let at = 0; at < packed.length; at += maxChunkBytes) parts.push(packed.subarray(at, at + maxChunkBytes));
  return parts.length ? parts : [packed];
}

export function decodeChunks(parts: Buffer[]): unknown {
  return JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8'));
}
