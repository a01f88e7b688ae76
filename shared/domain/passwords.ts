import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (e, key) => (e ? reject(e) : resolve(key))));

/** New hashes: N = 2^17, r = 8, p = 1 (OWASP's minimum for scrypt); 128·N·r = 128 MiB of memory. */
export const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;

/**
 * What a stored hash may ask for when it is verified. Older hashes (N = 2^14) keep verifying with
 * their own parameters; a tampered hash cannot make a verification allocate more than 256 MiB or
 * run more than a few times longer than a new hash.
 */
const BOUNDS = { minLogN: 10, maxLogN: 18, maxR: 16, maxP: 4, maxMemBytes: 256 * 1024 * 1024, saltBytes: [8, 64], hashBytes: [16, 64] } as const;

/** Node refuses scrypt above `maxmem` (32 MiB by default): ask for what these parameters need. */
const maxmemFor = (N: number, r: number) => 128 * N * r + 1024 * 1024;

/** scrypt hash in the self-describing form `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, { N, r, p, maxmem: maxmemFor(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** The parameters of a stored hash, or undefined when they are malformed or out of bounds. */
function parse(stored: string) {
  const [tag, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (tag !== 'scrypt' || rest.length || !salt || !hash) return undefined;
  const [N, R, P] = [n, r, p].map((x) => (/^\d{1,8}$/.test(x ?? '') ? Number(x) : NaN)) as [number, number, number];
  const logN = Math.log2(N);
  const saltBytes = Buffer.from(salt, 'base64url');
  const hashBytes = Buffer.from(hash, 'base64url');
  const ok =
    Number.isInteger(logN) && logN >= BOUNDS.minLogN && logN <= BOUNDS.maxLogN &&
    R >= 1 && R <= BOUNDS.maxR && P >= 1 && P <= BOUNDS.maxP &&
    128 * N * R <= BOUNDS.maxMemBytes &&
    saltBytes.length >= BOUNDS.saltBytes[0] && saltBytes.length <= BOUNDS.saltBytes[1] &&
    hashBytes.length >= BOUNDS.hashBytes[0] && hashBytes.length <= BOUNDS.hashBytes[1];
  return ok ? { N, r: R, p: P, salt: saltBytes, hash: hashBytes } : undefined;
}

/** Checks a password against a stored hash with the hash's own parameters (false when out of bounds). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parse(stored);
  if (!h) return false;
  const key = await scrypt(password, h.salt, h.hash.length, { N: h.N, r: h.r, p: h.p, maxmem: maxmemFor(h.N, h.r) });
  return timingSafeEqual(key, h.hash);
}
