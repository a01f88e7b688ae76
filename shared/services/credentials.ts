/**
 * Dashboard credentials: who holds an access key. Valid ones are kept for CACHE_SECONDS from the
 * moment they were read from the table (only valid ones: a refusal always asks the table), and
 * however often they are used meanwhile. A user update or access-key rotation in this process
 * clears the cache at once (shared/services/users.ts); other warm processes read the table again
 * within CACHE_SECONDS.
 */
import { config } from '../config';
import { sha256Hex } from '../lib/hashing';
import { TtlCache } from '../lib/ttl-cache';
import { loadAccessKeyOwner, type AccessKeyOwner } from '../store/users';

const accessKeyCache = new TtlCache<AccessKeyOwner>(() => config().cacheMs);

/** The active owner of a clear access key, or undefined when the key is unknown or its user inactive. */
export async function activeOwnerOf(accessKey: string): Promise<AccessKeyOwner | undefined> {
  const cached = accessKeyCache.get(accessKey);
  if (cached) return cached;
  const owner = await loadAccessKeyOwner(sha256Hex(accessKey));
  if (!owner?.active) return undefined;
  // Stored only when read from the table, so its time runs from that read (not from each use).
  accessKeyCache.set(accessKey, owner);
  return owner;
}

/** Every credential this process remembers is read from the table again. */
export function forgetAccessKeys(): void {
  accessKeyCache.clear();
}
