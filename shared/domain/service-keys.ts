/**
 * Keys derived from the service key (SERVER_SECRET), one per purpose (HKDF-SHA256 with a label
 * each), and the keyed hash that uses them. What the table stores about a request (its record
 * key, its fingerprint) is keyed, so the table alone cannot be used to test guesses of a body
 * (a password) or of an Idempotency-Key offline.
 */
import { createHmac, hkdfSync } from 'node:crypto';

export type KeyPurpose = 'idempotency record' | 'idempotency fingerprint' | 'idempotent reply' | 'cursor' | 'webhook signing secret';

export function deriveKey(secret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', `gw-management ${purpose}`, 32));
}

/** HMAC-SHA256 (hex) of the parts, each prefixed with its length so no two lists of parts collide. */
export function keyedHash(key: Buffer, ...parts: string[]): string {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(`${Buffer.byteLength(part)}:`).update(part);
  return mac.digest('hex');
}
