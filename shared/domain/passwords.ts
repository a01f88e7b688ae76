/**
 * Basic-auth passwords of gateway keys and dashboard user passwords are stored only as these
 * hashes (contract §2); the gateway verifies them. Developer passwords (the portal) are verified here at sign-in.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (e, key) => (e ? reject(e) : resolve(key))));

/** New hashes: N = 2^17, r = 8, p = 1 (OWASP's minimum for scrypt); 128·N·r = 128 MiB of memory. */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;

/** Node refuses scrypt above `maxmem` (32 MiB by default): ask for what these parameters need. */
const maxmemFor = (N: number, r: number) => 128 * N * r + 1024 * 1024;

/** scrypt hash in the self-describing form `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, { N, r, p, maxmem: maxmemFor(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` is the one `stored` was made from (a hash of hashPassword's form), compared in
 * constant time. A malformed hash verifies nothing.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { ...params, maxmem: maxmemFor(params.N, params.r) });
  return timingSafeEqual(key, expected);
}

/**
 * A hash no password was made from, computed once per process: a sign-in for an unknown e-mail
 * verifies against it, so it costs what a known one does and its timing names no account.
 */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(24).toString('base64url')));
