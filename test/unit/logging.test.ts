/**
 * One logger for every layer (shared/observability/): a line any layer writes carries the request
 * id and route of the invocation it runs in, also while other invocations run in the same process
 * (the local stage); an event source's lines carry its name and no request id; LOG_LEVEL sets the
 * threshold.
 */
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { invoke, observed } from '../../shared/observability/invocation';
import { logger } from '../../shared/observability/logger';

let lines: Record<string, unknown>[];

beforeEach(() => {
  lines = [];
  const capture = (chunk: unknown) => {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  process.env.LOG_LEVEL = 'info';
  resetConfig();
});

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.LOG_LEVEL;
  resetConfig();
});

const lambda = (awsRequestId: string) => ({ awsRequestId, functionName: 'fn', invokedFunctionArn: 'arn:fn', memoryLimitInMB: '256' }) as Context;

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('the logger of every layer', () => {
  it("puts the invocation's request id, route and Lambda context on every line written in it", async () => {
    await invoke({ requestId: 'req-1', route: 'POST /gw/sessions/check' }, lambda('aws-1'), async () => {
      logger.info('event not recorded', { event: 'QuotaExceeded' });
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'INFO',
      message: 'event not recorded',
      requestId: 'req-1',
      route: 'POST /gw/sessions/check',
      event: 'QuotaExceeded',
      service: 'gw-control-plane',
      function_name: 'fn',
      function_request_id: 'aws-1',
    });
  });

  it('names its own invocation while others run in the same process, whichever began last', async () => {
    const first = gate();
    const second = gate();
    const a = invoke({ requestId: 'req-a', route: 'POST /gw/policies' }, lambda('aws-a'), async () => {
      await first.opened;
      logger.error('unhandled error', new Error('storage failed'));
      second.open();
    });
    const feed = observed('change-feed', async () => {
      await second.opened;
      logger.error('change feed: record failed; it is handed over again');
    })({}, lambda('aws-feed'));
    const b = invoke({ requestId: 'req-b', route: 'POST /gw/sessions/check' }, lambda('aws-b'), async () => {
      first.open();
      await second.opened;
      logger.info('request');
    });
    await Promise.all([a, feed, b]);
    expect(lines.map((l) => [l.message, l.requestId, l.route, l.function_request_id])).toEqual([
      ['unhandled error', 'req-a', 'POST /gw/policies', 'aws-a'],
      ['change feed: record failed; it is handed over again', undefined, 'change-feed', 'aws-feed'],
      ['request', 'req-b', 'POST /gw/sessions/check', 'aws-b'],
    ]);
  });

  it('honours LOG_LEVEL', async () => {
    process.env.LOG_LEVEL = 'warn';
    resetConfig();
    await invoke({ requestId: 'req-2', route: 'GET /hello' }, undefined, async () => {
      logger.info('hidden');
      logger.warn('shown');
    });
    expect(lines.map((l) => l.message)).toEqual(['shown']);
  });

  it('writes no keys of an invocation on a line written outside one', async () => {
    await invoke({ requestId: 'req-3', route: 'GET /a' }, lambda('aws-3'), async () => undefined);
    logger.warn('next');
    expect(lines).toHaveLength(1);
    for (const key of ['requestId', 'route', 'function_request_id']) expect(lines[0]).not.toHaveProperty(key);
  });
});
