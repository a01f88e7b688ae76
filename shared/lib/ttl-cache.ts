/**
 * A small in-process cache whose entries expire a fixed time after they were stored, that is
 * after they were read from the table. Warm Lambda containers and the local stage keep hot
 * credentials and sessions here, so the hottest paths skip a round trip; the time bound is how
 * stale an entry may be in another process (docs/reference/limits.md). Using an entry never extends it:
 * a credential used every half second must still be read again from the table every
 * CACHE_SECONDS, or a deactivation would never be seen.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: () => number,
    private readonly maxEntries = 10_000,
  ) {
    everyCache.add(this);
  }

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /**
   * Stores a value read from the table now. A live entry keeps its expiry: setting it again
   * (a caller that re-stores what it got from `get`) must not make it live longer.
   */
  set(key: string, value: V, now = Date.now()): void {
    const ttl = this.ttlMs();
    if (ttl <= 0) return;
    const live = this.entries.get(key);
    if (live && live.until > now) {
      live.value = value;
      return;
    }
    this.entries.delete(key);
    // Oldest first: Map keeps insertion order, so evicting from the front drops the oldest entry.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: now + ttl });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose key starts with `prefix`. */
  deletePrefixed(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** Drops every entry whose value passes `test`; answers their keys. */
  deleteWhere(test: (value: V) => boolean): string[] {
    const gone: string[] = [];
    for (const [key, { value }] of this.entries) {
      if (!test(value)) continue;
      this.entries.delete(key);
      gone.push(key);
    }
    return gone;
  }

  clear(): void {
    this.entries.clear();
  }
}

const everyCache = new Set<TtlCache<unknown>>();

/**
 * Empties every cache of the process. What they hold was read from one table; a process that
 * points the store at another (the tests' useTestTable, one table per file in a shared worker)
 * must not answer from the last one's entries.
 */
export function clearEveryCache(): void {
  for (const cache of everyCache) cache.clear();
}
