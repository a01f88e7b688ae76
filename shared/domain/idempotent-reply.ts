/**
 * How an idempotent reply is kept (contract §3): gzipped, sealed (AES-256-GCM, the scope as
 * context) as bytes, and cut into parts of at most `partBytes`, so a reply of any size a handler
 * can answer is kept whole however little it compresses. The parts open only together, in order:
 * a missing, reordered or altered part fails the seal.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { LIMITS } from '../limits';
import { sealBytes, unsealBytes } from './sealed';

/** No reply a handler answers comes near this; a replay never decompresses more. */
const MAX_REPLY_BYTES = 4 * LIMITS.responseBytes;

export function packReply(text: string, key: Buffer, context: string, partBytes: number): Buffer[] {
  if (!Number.isInteger(partBytes) || partBytes < 1) throw new RangeError('partBytes must be a positive integer');
  const sealed = sealBytes(gzipSync(Buffer.from(text, 'utf8'), { level: 6 }), key, context);
  const parts: Buffer[] = [];
  for (let at = 0; at < sealed.length; at += partBytes) parts.push(sealed.subarray(at, at + partBytes));
  return parts;
}

/** The reply's text, or undefined when the parts do not open (another key or context, altered, missing). */
export function openReply(parts: readonly Uint8Array[], key: Buffer, context: string): string | undefined {
  const packed = unsealBytes(Buffer.concat(parts), key, context);
  if (!packed) return undefined;
  try {
    return gunzipSync(packed, { maxOutputLength: MAX_REPLY_BYTES }).toString('utf8');
  } catch {
    return undefined;
  }
}

/** What a replay answers in place of a secret (contract §3): the secret itself is never kept. */
export const SECRET_WITHHELD = 'withheld: a secret is shown only in the first answer; rotate it if that answer was lost';

/**
 * The reply body to keep for replays: each member at `paths` (dot paths into the JSON body) that
 * holds a value is replaced by SECRET_WITHHELD. Text that is not JSON is kept as it is.
 */
export function withholdSecrets(body: string, paths: readonly string[]): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  for (const path of paths) {
    const names = path.split('.');
    let at: unknown = value;
    for (const name of names.slice(0, -1)) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[name] : undefined;
    const last = names[names.length - 1]!;
    if (at !== null && typeof at === 'object' && Object.hasOwn(at, last)) (at as Record<string, unknown>)[last] = SECRET_WITHHELD;
  }
  return JSON.stringify(value);
}
