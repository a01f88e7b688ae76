import { describe, expect, it } from 'vitest';
import { BadRequest } from '../../shared/errors';
import { classicApiSchema } from '../../shared/schemas/api-classic';
import { gwApiGatewaySchema, oasDocumentSchema, oasWriteBodySchema } from '../../shared/schemas/api-oas';
import { smoothingSchema } from '../../shared/schemas/smoothing';
import { normaliseOasWriteBody, publicView } from '../../shared/domain/oas-document';

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.join('.'));

describe('classic API definition schema', () => {
  it('rejects a negative JWT skew and names the field', () => {
    const r = classicApiSchema.safeParse({ api_id: 'a1', jwt_expires_at_validation_skew: -1 });
    expect(r.success).toBe(false);
    expect(paths(r)).toContain('jwt_expires_at_validation_skew');
  });

  it('rejects negative and fractional skews in external OAuth providers too', () => {
    const r = classicApiSchema.safeParse({ external_oauth: { providers: [{ jwt: { issued_at_validation_skew: 1.5, not_before_validation_skew: -3 } }] } });
    expect(paths(r).sort()).toEqual(['external_oauth.providers.0.jwt.issued_at_validation_skew', 'external_oauth.providers.0.jwt.not_before_validation_skew']);
  });

  it('accepts zero skews, null arrays, both uptime timeout forms and keeps unknown members at every level', () => {
    const def = {
      api_id: 'a1',
      jwt_expires_at_validation_skew: 0,
      tags: null,
      allowed_ips: null,
      future_flag: { x: 1 },
      proxy: { listen_path: '/a/', target_url: 'http://u', brand_new: true, transport: { ssl_min_version: 771, extra: 'kept' } },
      CORS: { enable: true, allowed_origins: null, unknown_cors: 1 },
      uptime_tests: {
        check_list: [
          { url: 'http://u/health', timeout: 500 },
          { url: 'http://u/h2', timeout: '2s' },
        ],
      },
    };
    const r = classicApiSchema.safeParse(def);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(def);
  });

  it('checks listed types', () => {
    const r = classicApiSchema.safeParse({ use_keyless: 'yes', listen_port: 80.5, tags: 'a', cache_options: { cache_response_codes: ['200'] } });
    expect(paths(r).sort()).toEqual(['cache_options.cache_response_codes.0', 'listen_port', 'tags', 'use_keyless']);
  });

  it('rejects api ids with characters outside the id alphabet', () => {
    expect(paths(classicApiSchema.safeParse({ api_id: 'a/b' }))).toEqual(['api_id']);
  });
});

describe('smoothing', () => {
  it.each([
    [{ step: 0 }, 'step'],
    [{ delay: 0 }, 'delay'],
    [{ threshold: 0 }, 'threshold'],
    [{ trigger: -0.1 }, 'trigger'],
    [{ trigger: 0.005 }, 'trigger'],
    [{ step: 1.5 }, 'step'],
  ])('rejects %j', (value, field) => {
    expect(paths(smoothingSchema.safeParse(value))).toEqual([field]);
  });

  it('accepts the documented bounds, tolerating binary fractions', () => {
    for (const trigger of [0, 0.07, 0.1, 0.29, 1]) {
      expect(smoothingSchema.safeParse({ enabled: true, delay: 1, step: 1, threshold: 1, trigger }).success).toBe(true);
    }
  });
});

describe('x-gw-api-gateway schema', () => {
  it('rejects a smoothing step of 0 under upstream.rateLimit with the path', () => {
    const r = gwApiGatewaySchema.safeParse({ upstream: { rateLimit: { enabled: true, rate: 10, per: 1, smoothing: { step: 0 } } } });
    expect(paths(r)).toEqual(['upstream.rateLimit.smoothing.step']);
  });

  it('checks types and keeps unknown members', () => {
    const gw = {
      info: { name: 'n', state: { active: true, brandNew: 1 }, extra: 'x' },
      server: { listenPath: { value: '/n/', strip: true }, futureServerThing: { a: 1 } },
      upstream: { url: 'http://u', rateLimit: { enabled: true, rate: 5, per: 'PT1M' } },
      middleware: { global: { cors: { enabled: true, newCorsFlag: true } }, operations: { getPet: { requestSizeLimit: { enabled: true, value: 10 } } } },
      topLevelExtra: [1, 2],
    };
    const r = gwApiGatewaySchema.safeParse(gw);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(gw);
    const bad = gwApiGatewaySchema.safeParse({
      info: { state: { active: 'yes' } },
      server: { listenPath: { strip: 1 } },
      upstream: { rateLimit: { rate: 1.5 } },
    });
    expect(paths(bad).sort()).toEqual(['info.state.active', 'server.listenPath.strip', 'upstream.rateLimit.rate']);
  });
});

describe('OAS write body', () => {
  const gw = { info: { name: 'Pets', id: 'pets' }, upstream: { url: 'http://u' }, server: { listenPath: { value: '/pets/' } } };

  it('accepts a full document with the extension and keeps other members', () => {
    const body = { openapi: '3.0.3', info: { title: 'T', version: '2', 'x-logo': 'l' }, paths: { '/a': {} }, 'x-other': 1, 'x-gw-api-gateway': gw };
    const r = oasWriteBodySchema.safeParse(body);
    expect(r.success).toBe(true);
    expect(normaliseOasWriteBody(r.data!)).toEqual(body);
  });

  it('rejects a full document without the extension (schema and domain)', () => {
    const body = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} };
    expect(paths(oasWriteBodySchema.safeParse(body))).toEqual(['x-gw-api-gateway']);
    expect(() => normaliseOasWriteBody(body)).toThrow(BadRequest);
    // A document that forgot `openapi` is still a document, not an extension.
    expect(oasWriteBodySchema.safeParse({ info: { title: 'T', version: '1' }, paths: {} }).success).toBe(false);
  });

  it('rejects a body that is neither form', () => {
    expect(paths(oasWriteBodySchema.safeParse({}))).toEqual(['x-gw-api-gateway']);
    expect(paths(oasWriteBodySchema.safeParse({ hello: 'world' }))).toEqual(['x-gw-api-gateway']);
  });

  it('builds a minimal document around the bare extension', () => {
    const r = oasWriteBodySchema.safeParse(gw);
    expect(r.success).toBe(true);
    const doc = normaliseOasWriteBody(r.data!);
    expect(doc).toEqual({ openapi: '3.0.3', info: { title: 'Pets', version: '1.0.0' }, paths: {}, 'x-gw-api-gateway': gw });
    expect(oasDocumentSchema.safeParse(doc).success).toBe(true);
  });

  it('reports failures inside the extension with exact paths in both forms', () => {
    const badGw = { ...gw, upstream: { url: 5 } };
    expect(paths(oasWriteBodySchema.safeParse(badGw))).toEqual(['upstream.url']);
    const doc = { openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: {}, 'x-gw-api-gateway': badGw };
    expect(paths(oasWriteBodySchema.safeParse(doc))).toEqual(['x-gw-api-gateway.upstream.url']);
    expect(paths(oasWriteBodySchema.safeParse({ ...doc, openapi: '2.0' }))).toContain('openapi');
  });

  it('public view removes only the extension', () => {
    const doc = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: { '/a': {} }, 'x-other': { a: 1 }, 'x-gw-api-gateway': gw };
    expect(publicView(doc)).toEqual({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: { '/a': {} }, 'x-other': { a: 1 } });
    expect(doc['x-gw-api-gateway']).toBe(gw);
  });
});
