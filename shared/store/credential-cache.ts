/**
 * Valid dashboard credentials seen lately, kept for CACHE_SECONDS from the moment they were read
 * from the table (only valid ones: a refusal always asks the table). A user update or access-key
 * rotation in this process clears the cache at once; other warm processes read the table again
 * within CACHE_SECONDS, however often the credential is used meanwhile.
 */
import { config } from '../config';
import { TtlCache } from '../domain/ttl-cache';
import type { AccessKeyOwner } from './users';

export const accessKeyCache = new TtlCache<AccessKeyOwner>(() => config().cacheMs);

export function forgetAccessKeys(): void {
  accessKeyCache.clear();
}
