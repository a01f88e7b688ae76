/**
 * Setup file of the full suite (vitest.config.ts): each test file leaves the environment as it
 * found it. Files that share a worker's modules share its process too, so a file's settings
 * (ORG_WRITE_LIMIT, CACHE_SECONDS, HOOK_RETRY_SECONDS, ...) would otherwise reach the next file.
 * This file runs again before every test file, so `found` is that file's starting point.
 */
import { afterAll } from 'vitest';
import { resetConfig } from '../../shared/config';

const found = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in found)) delete process.env[name];
  Object.assign(process.env, found);
  // The settings are read once per process (shared/config.ts); the next file reads them afresh.
  resetConfig();
});
