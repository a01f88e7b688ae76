/**
 * One logger for every layer (shared/observability/): a line a service writes carries the request
 * id and route the invocation appended once, LOG_LEVEL sets the threshold, and the next
 * invocation does not inherit the keys of the one before.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config';
import { beginInvocation } from '../../shared/observability/invocation';
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
});

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.LOG_LEVEL;
  resetConfig();
});

describe('the logger of every layer', () => {
  it('puts the invocation keys on every line, once appended', () => {
    process.env.LOG_LEVEL = 'info';
    resetConfig();
    beginInvocation({ requestId: 'req-1', route: 'POST /gw/sessions/check' });
    logger.info('event not recorded', { event: 'QuotaExceeded' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'INFO',
      message: 'event not recorded',
      requestId: 'req-1',
      route: 'POST /gw/sessions/check',
      event: 'QuotaExceeded',
      service: 'gw-control-plane',
    });
  });

  it('honours LOG_LEVEL', () => {
    process.env.LOG_LEVEL = 'warn';
    resetConfig();
    beginInvocation({ requestId: 'req-2', route: 'GET /hello' });
    logger.info('hidden');
    logger.warn('shown');
    expect(lines.map((l) => l.message)).toEqual(['shown']);
  });

  it('drops the keys of the invocation before', () => {
    process.env.LOG_LEVEL = 'info';
    resetConfig();
    beginInvocation({ requestId: 'req-3', route: 'GET /a' });
    beginInvocation({ route: 'change-feed' });
    logger.info('next');
    expect(lines[0]).toMatchObject({ route: 'change-feed' });
    expect(lines[0]).not.toHaveProperty('requestId');
  });
});
