/**
 * Authenticated encryption (AES-256-GCM) for what the service stores or hands out and must read
 * back unchanged: idempotent replies (they can hold a secret shown once: a clear key, an OAuth
 * secret) and list cursors. `context` is authenticated with the text, so a sealed text opens
 * only where it was sealed for.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** `iv.tag.ciphertext`, each base64url. */
export function seal(plaintext: string, key: Buffer, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

/** The plaintext, or undefined when the key or context is wrong or the text was altered. */
export function unseal(sealed: string, key: Buffer, context: string): string | undefined {
  const parts = sealed.split('.');
  if (parts.length !== 3) return undefined;
  const [iv, tag, data] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  if (iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The key of one stored idempotent reply: HKDF with the client's Idempotency-Key as input and
 * the service's reply key as salt, so opening a reply needs both. A guessable Idempotency-Key
 * (`1`) no longer suffices with the table in hand, and the service key alone opens nothing
 * either without the client's key.
 */
export function replyKey(serviceReplyKey: Buffer, idempotencyKey: string, scope: string): Buffer {
  return Buffer.from(hkdfSync('sha256', idempotencyKey, serviceReplyKey, `gw-management idempotent reply\n${scope}`, 32));
}
