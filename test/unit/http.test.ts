import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { bodyText, checkContentType } from '../../shared/http/body';
import { checkDepth, parseJson } from '../../shared/parsing';
import { fallbackResponse } from '../../shared/http/fallback';
import { validateParts } from '../../shared/http/validate';
import { errorBody } from '../../shared/http/envelopes';
import { AppError } from '../../shared/errors';
import { secretEquals } from '../../shared/lib/hashing';
import { idSchema } from '../../shared/schemas/common';
import type { RouteDef } from '../../shared/route-def';

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.status : -1;
  }
  return 200;
};

describe('body parsing', () => {
  it('rejects malformed JSON and prototype keys with 400', () => {
    expect(status(() => parseJson('{"a":'))).toBe(400);
    expect(status(() => parseJson('{"__proto__":{"x":1}}'))).toBe(400);
    expect(status(() => parseJson('{"constructor":{"prototype":{"x":1}}}'))).toBe(400);
    expect(parseJson('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(parseJson('')).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('limits nesting depth without recursing', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(status(() => parseJson(deep))).toBe(400);
    expect(status(() => checkDepth(JSON.parse('[[[[1]]]]'), 4))).toBe(200);
    expect(status(() => checkDepth(JSON.parse('[[[[[1]]]]]'), 4))).toBe(400);
  });

  it('answers 413 above 5 MB, also when base64 encoded', () => {
    expect(status(() => bodyText('x'.repeat(5 * 1024 * 1024 + 1), false))).toBe(413);
    expect(status(() => bodyText(Buffer.alloc(5 * 1024 * 1024 + 10).toString('base64'), true))).toBe(413);
    expect(bodyText(Buffer.from('{"a":1}').toString('base64'), true)).toBe('{"a":1}');
  });

  it('checks the media type of the route; a missing header counts as JSON', () => {
    const json = { contentTypes: undefined } as unknown as RouteDef;
    expect(status(() => checkContentType(json, undefined))).toBe(200);
    expect(status(() => checkContentType(json, 'application/json; charset=utf-8'))).toBe(200);
    expect(status(() => checkContentType(json, 'text/plain'))).toBe(415);
    const streams = { contentTypes: ['application/vnd.gw.streams.oas'] } as unknown as RouteDef;
    expect(status(() => checkContentType(streams, undefined))).toBe(415);
  });
});

describe('validation', () => {
  it('lists every problem with a readable path', async () => {
    try {
      await validateParts(
        { params: z.object({ apiID: idSchema }), body: z.object({ method: z.enum(['GET', 'POST']), n: z.number() }) },
        { params: { apiID: '../etc' }, query: {}, body: { method: 'FETCH', n: 'x' } },
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      const err = e as AppError;
      expect(err.status).toBe(400);
      expect(err.details?.map((d) => d.path)).toEqual(['params.apiID', 'body.method', 'body.n']);
      expect(err.message).toContain('params.apiID');
    }
  });

  it('refuses ids outside [A-Za-z0-9._~-]{1,128}', () => {
    for (const bad of ['a#b', 'a/b', '', 'x'.repeat(129), 'ａpi', 'a b', 'ORG#1']) expect(idSchema.safeParse(bad).success, bad).toBe(false);
    for (const good of ['abc', 'A-1_b.c~d', '0'.repeat(128)]) expect(idSchema.safeParse(good).success, good).toBe(true);
  });
});

describe('envelopes and fallback', () => {
  it('uses the gateway envelope under /gw and the status envelope elsewhere', () => {
    expect(errorBody('gateway', 'nope')).toEqual({ status: 'error', message: 'nope' });
    expect(errorBody('admin', 'nope', [{ path: 'body.x', message: 'bad' }])).toEqual({
      Status: 'Error',
      Message: 'nope',
      Meta: { errors: [{ path: 'body.x', message: 'bad' }] },
    });
    expect(fallbackResponse('GET', '/gw/x').statusCode).toBe(404);
    expect(JSON.parse(fallbackResponse('GET', '/gw/x').body)).toMatchObject({ status: 'error' });
    const r405 = fallbackResponse('PUT', '/api/users');
    expect(r405.statusCode).toBe(405);
    expect(JSON.parse(r405.body)).toMatchObject({ Status: 'Error' });
  });

  it('compares secrets by value, not by prefix', () => {
    expect(secretEquals('abc', 'abc')).toBe(true);
    expect(secretEquals('abc', 'abcd')).toBe(false);
    expect(secretEquals('', 'abc')).toBe(false);
  });
});
