/**
 * Setup file of every test file (vitest.config.ts): keeps each exchange an e2e file has with a
 * stage through the one client (test/support/client.ts) and writes them to the run's directory,
 * where test/after/openapi-traffic.test.ts holds every answer to the OpenAPI document.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, inject } from 'vitest';
import { watchTraffic } from './client';

/** One exchange as the traffic check reads it. */
export interface RecordedExchange {
  method: string;
  /** Path and query, as sent. */
  path: string;
  requestType: string | undefined;
  /** The request body as text, left out (undefined) above REQUEST_KEPT bytes or when it is not UTF-8 text. */
  requestBody: string | undefined;
  status: number;
  headers: Record<string, string>;
  /** The answer's body as text. */
  body: string;
}

/** Larger request bodies (the 5 MB limit tests) are not kept: only their answer is checked. */
const REQUEST_KEPT = 256 * 1024;
const seen: RecordedExchange[] = [];
const stopWatching = watchTraffic(({ method, path, requestHeaders, requestBody, answer }) => {
  const type = Object.entries(requestHeaders).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  seen.push({
    method,
    path,
    requestType: type,
    requestBody: requestBody && requestBody.length <= REQUEST_KEPT ? requestBody.toString('utf8') : undefined,
    status: answer.status,
    headers: Object.fromEntries(answer.headers.entries()),
    body: answer.text,
  });
});

afterAll(({}, file) => {
  stopWatching();
  const path = relative(process.cwd(), (file as { filepath?: string }).filepath ?? 'unknown');
  if (!path.startsWith(join('test', 'e2e'))) return;
  const name = path.replace(/[^A-Za-z0-9.-]+/g, '_');
  writeFileSync(join(inject('trafficDir'), `${name}-${process.pid}.json`), JSON.stringify({ file: path, exchanges: seen }));
});
