/**
 * The webhook signature (contract §11): `X-Gw-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">` keyed by the hook's signing secret. The time is signed with the body, so a
 * receiver that refuses old `t` values (`verifyWebhookSignature`'s tolerance) also refuses a
 * replayed delivery. While a rotation's window is open the header carries one `v1=` per secret,
 * the new one first: a receiver that still holds the old secret keeps verifying.
 *
 * `verifyWebhookSignature` is what a receiver runs; it needs nothing but `node:crypto`, so it can
 * be copied into a receiver as it is (docs/using/events-and-webhooks.md has a sample).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret: 32 random bytes, base64url, with a prefix that says what it is. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureOf(secret: string, t: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** The header of a delivery signed at `t` with each of `secrets` (the current one first). */
export function signatureHeader(secrets: readonly string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${signatureOf(s, t, body)}`)].join(',');
}

/** How far a signature's `t` may be from the receiver's clock, either way (contract §11). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** Seconds `t` may differ from `now` (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds (default `Date.now()`). */
  now?: number;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'outside_tolerance' | 'no_match' };

/**
 * True (`ok`) when one `v1=` of the header is the HMAC of `<t>.<rawBody>` under one of `secrets`
 * and `t` is within the tolerance of `now`. Pass the body exactly as received (bytes or text), and
 * during a rotation both secrets you accept. Comparisons take constant time.
 */
export function verifyWebhookSignature(
  secrets: string | readonly string[],
  header: string | undefined,
  rawBody: string | Buffer,
  opts: VerifyOptions = {},
): VerifyResult {
  if (!header) return { ok: false, reason: 'malformed' };
  let t: number | undefined;
  const given: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const [name, value] = [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    if (name === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) given.push(Buffer.from(value, 'hex'));
  }
  if (t === undefined || given.length === 0) return { ok: false, reason: 'malformed' };
  const tolerance = opts.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs((opts.now ?? Date.now()) / 1000 - t) > tolerance) return { ok: false, reason: 'outside_tolerance' };
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const want = Buffer.from(signatureOf(secret, t, rawBody), 'hex');
    if (given.some((g) => timingSafeEqual(g, want))) return { ok: true, timestamp: t };
  }
  return { ok: false, reason: 'no_match' };
}
