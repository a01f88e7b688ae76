/**
 * Authenticated encryption (AES-256-GCM) under a key derived from a client-held secret. Used for
 * stored idempotent replies: they can hold a secret shown once (a clear key, an OAuth secret),
 * and only the client that knows the Idempotency-Key can open them again.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

function keyOf(secret: string, context: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, context, 'gw-management idempotent reply', 32));
}

/** `iv.tag.ciphertext`, each base64url. */
export function seal(plaintext: string, secret: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, context), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

/** The plaintext, or undefined when the secret or context is wrong or the text was altered. */
export function unseal(sealed: string, secret: string, context: string): string | undefined {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !data) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, context), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
