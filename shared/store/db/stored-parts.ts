import { gunzipSync, gzipSync } from 'node:zlib';
import { AppError, PayloadTooLarge } from '../../errors';
import { LIMITS } from '../../limits';

/**
 * A stored document larger than any read decompresses: only one written before that limit can be.
 * 409, as the object's state (not the request) is at fault and no request can change it.
 */
export class StoredTooLarge extends AppError {
  constructor(what: string, maxBytes: number) {
    super(
      409,
      `${what} is larger than the ${maxBytes / 1024 / 1024} MB of JSON a read may decompress (it was stored before that limit); ` +
        'it cannot be read or changed here, and an operator must remove it from the table',
    );
  }
}

/**
 * Large definitions (up to 5 MB of JSON) are gzipped and split, so no stored item nears
 * DynamoDB's 400 KB limit. OpenAPI JSON typically shrinks 5-15x. Nothing larger than
 * `maxJsonBytes` of JSON is stored (413), so every read can cap its decompression there.
 */
export function encodeParts(value: unknown, maxPartBytes = 350_000, maxJsonBytes: number = LIMITS.storedJsonBytes): Buffer[] {
  if (!Number.isInteger(maxPartBytes) || maxPartBytes < 1) throw new RangeError('maxPartBytes must be a positive integer');
  const json = Buffer.from(JSON.stringify(value));
  if (json.length > maxJsonBytes) {
    throw new PayloadTooLarge(`The definition as stored is ${json.length} bytes of JSON, more than the ${maxJsonBytes} allowed`);
  }
  const packed = gzipSync(json, { level: 6 });
  const parts: Buffer[] = [];
  for (let at = 0; at < packed.length; at += maxPartBytes) parts.push(packed.subarray(at, at + maxPartBytes));
  return parts.length ? parts : [packed];
}

/**
 * The stored value and its size as JSON text. zlib stops at `maxJsonBytes` of output
 * (`maxOutputLength`), so a document stored before that limit, or a gzip bomb, can never make a
 * read allocate more: it throws StoredTooLarge instead.
 */
export function decodeParts(parts: Buffer[], what = 'The stored document', maxJsonBytes: number = LIMITS.storedJsonBytes): { value: unknown; bytes: number } {
  let text: Buffer;
  try {
    text = gunzipSync(Buffer.concat(parts), { maxOutputLength: maxJsonBytes });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new StoredTooLarge(what, maxJsonBytes);
    throw e;
  }
  return { value: JSON.parse(text.toString('utf8')), bytes: text.length };
}
