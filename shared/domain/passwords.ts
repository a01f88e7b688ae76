/**
 * Basic-auth passwords of gateway keys and dashboard user passwords are stored only as these
 * hashes (contract §2); the gateway verifies them, this service never does.
 */
import { randomBytes, scrypt as scryptCb, type ScryptOptions } from 'node:crypto';

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
