/**
 * Setup file of the full suite (vitest.config.ts): each test file leaves the environment as it
 * found it. Files that share a worker's modules share its process too, so a file's settings
 * (ORG_WRITE_LIMIT, CACHE_SECONDS, HOOK_RETRY_SECONDS, ...) would otherwise reach the next file.
 * This file runs again before every test file, so `found` is that file's starting point. The
 * tables the file made are dropped too, so the shared DynamoDB Local holds only live files' tables.
 */
import { afterAll } from 'vitest';
import { resetConfig } from '../../shared/config';
import { putBackEnvironment } from './environment';
import { dropTestTables } from './table';

// The process's own environment object, kept from the worker's first file: a file that replaced
// process.env (instead of changing it) gets it back, or os.tmpdir() and the like would stop
// seeing what the next files set.
const REAL = Symbol.for('gw.realEnvironment');
const worker = globalThis as { [REAL]?: NodeJS.ProcessEnv };
worker[REAL] ??= process.env;
const found = { ...process.env };

afterAll(async () => {
  await dropTestTables();
  process.env = worker[REAL]!;
  putBackEnvironment(found);
  // The settings are read once per process (shared/config.ts); the next file reads them afresh.
  resetConfig();
});
