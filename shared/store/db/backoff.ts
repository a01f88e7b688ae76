/** Waiting between the attempts of a write that lost a race or was throttled. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Exponential back-off with jitter: about `baseMs` × 2^attempt, at most `capMs`, spread over half
 * to one and a half of that so writers that lost together do not collide again at once.
 */
export const backoff = (attempt: number, baseMs = 10, capMs = 500) => sleep(Math.min(capMs, baseMs * 2 ** attempt) * (0.5 + Math.random()));
