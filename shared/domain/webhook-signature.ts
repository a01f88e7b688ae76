/**
 * The webhook signature (contract §11): `X-Gw-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">` keyed by the hook's signing secret. The time is signed with the body, so a
 * receiver that refuses old `t` values also refuses a replayed delivery.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret: 32 random bytes, base64url, with a prefix that says what it is. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureOf(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

export function signatureHeader(secret: string, t: number, body: string): string {
  return `t=${t},v1=${signatureOf(secret, t, body)}`;
}

/** What a receiver does: true when the header's v1 is the body's signature under `secret`. */
export function verifySignature(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || typeof parts.v1 !== 'string') return false;
  const want = Buffer.from(signatureOf(secret, t, body), 'hex');
  const got = Buffer.from(parts.v1, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}
