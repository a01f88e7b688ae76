import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Random lowercase hex of `bytes` bytes (24 hex = 12 bytes: database ids). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** Database ids (contract §4): 24 lowercase hex. */
export const newDbId = (): string => randomHex(12);

/** Constant-time comparison that does not leak the secret's length either. */
export function secretEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
