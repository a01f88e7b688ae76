/**
 * Authenticated encryption (AES-256-GCM) for what the service stores or hands out and must read
 * back unchanged: idempotent replies (they can hold a secret shown once: a clear key, an OAuth
 * secret) and list cursors. `context` is authenticated with the text, so a sealed text opens
 * only where it was sealed for.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

function encrypt(plain: Buffer, key: Buffer, context: string): [iv: Buffer, tag: Buffer, data: Buffer] {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), data];
}

function decrypt(iv: Buffer, tag: Buffer, data: Buffer, key: Buffer, context: string): Buffer | undefined {
  if (iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]);
  } catch {
    return undefined;
  }
}

/** `iv.tag.ciphertext`, each base64url: for text handed out (cursors). */
export function seal(plaintext: string, key: Buffer, context: string): string {
  return encrypt(Buffer.from(plaintext, 'utf8'), key, context)
    .map((b) => b.toString('base64url'))
    .join('.');
}

/** The plaintext, or undefined when the key or context is wrong or the text was altered. */
export function unseal(sealed: string, key: Buffer, context: string): string | undefined {
  const parts = sealed.split('.');
  if (parts.length !== 3) return undefined;
  const [iv, tag, data] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  return decrypt(iv, tag, data, key, context)?.toString('utf8');
}

/** iv (12 bytes), tag (16), ciphertext: for bytes the service stores as binary (a third smaller than base64). */
export function sealBytes(plain: Buffer, key: Buffer, context: string): Buffer {
  return Buffer.concat(encrypt(plain, key, context));
}

/** The plain bytes, or undefined when the key or context is wrong or the bytes were altered or cut. */
export function unsealBytes(sealed: Uint8Array, key: Buffer, context: string): Buffer | undefined {
  const b = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (b.length < 28) return undefined;
  return decrypt(b.subarray(0, 12), b.subarray(12, 28), b.subarray(28), key, context);
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
