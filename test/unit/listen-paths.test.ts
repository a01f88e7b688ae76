import { describe, expect, it } from 'vitest';
import { recordFromClassic, recordFromOas } from '../../shared/domain/api-builders';
import { defaultListenPath, listenClaimOf, normaliseListenPath, sameClaim } from '../../shared/domain/listen-paths';

const NOW = '2024-01-01T00:00:00.000Z';
const oas = (server: Record<string, unknown>, state: Record<string, unknown> = {}) =>
  recordFromOas({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {}, 'x-gw-api-gateway': { info: { id: 'a', state }, server } }, NOW);

describe('the default listen path of an import (contract §8)', () => {
  it('is /<slug>/: the title lower-cased, runs of other characters one -, trimmed, at most 64, api when empty', () => {
    expect(defaultListenPath('Petstore')).toBe('/petstore/');
    expect(defaultListenPath('  My  Pet-Store API v2.1! ')).toBe('/my-pet-store-api-v2-1/');
    expect(defaultListenPath('--Ünïcödé__Orders--')).toBe('/n-c-d-orders/');
    expect(defaultListenPath('¿¡!')).toBe('/api/');
    expect(defaultListenPath('')).toBe('/api/');
    expect(defaultListenPath(undefined)).toBe('/api/');
    expect(defaultListenPath('a'.repeat(100))).toBe(`/${'a'.repeat(64)}/`);
    // Cut at 64 where a dash falls: no trailing dash.
    expect(defaultListenPath(`${'b'.repeat(63)} tail`)).toBe(`/${'b'.repeat(63)}/`);
  });
});

describe('listen path claims', () => {
  it('normalises listen paths: one leading slash, no repeated or trailing slash, case kept, blank is the root', () => {
    expect(['/pets', '/pets/', 'pets', '//pets//', ' /pets/ '].map(normaliseListenPath)).toEqual(Array(5).fill('/pets'));
    expect(normaliseListenPath('/a//b/')).toBe('/a/b');
    expect(normaliseListenPath('/Pets/')).toBe('/Pets');
    expect(['', '/', '///', undefined, null, 5].map(normaliseListenPath)).toEqual(Array(6).fill('/'));
  });

  it('an OAS API claims its listen path, on its custom domain only when that is enabled', () => {
    expect(listenClaimOf(oas({ listenPath: { value: '/p/' } }))).toEqual({ domain: '', path: '/p' });
    expect(listenClaimOf(oas({ listenPath: { value: '/p/' }, customDomain: { enabled: true, name: 'API.Example.com.' } }))).toEqual({
      domain: 'api.example.com',
      path: '/p',
    });
    // As the gateway reads it: a domain that is not enabled routes on every host.
    expect(listenClaimOf(oas({ listenPath: { value: '/p/' }, customDomain: { name: 'api.example.com' } }))).toEqual({ domain: '', path: '/p' });
    expect(listenClaimOf(oas({ listenPath: { value: '/p/' }, customDomain: { enabled: false, name: 'api.example.com' } }))).toEqual({ domain: '', path: '/p' });
    expect(listenClaimOf(oas({}))).toEqual({ domain: '', path: '/' });
  });

  it('a classic API claims proxy.listen_path on its domain unless domain_disabled', () => {
    const classic = (def: Record<string, unknown>) => listenClaimOf(recordFromClassic({ api_id: 'c', ...def }, NOW));
    expect(classic({ proxy: { listen_path: '/c/' } })).toEqual({ domain: '', path: '/c' });
    expect(classic({ proxy: { listen_path: '/c/' }, domain: 'c.example' })).toEqual({ domain: 'c.example', path: '/c' });
    expect(classic({ proxy: { listen_path: '/c/' }, domain: 'c.example', domain_disabled: true })).toEqual({ domain: '', path: '/c' });
    expect(classic({})).toEqual({ domain: '', path: '/' });
  });

  it('internal APIs claim nothing (the gateway reaches them by id); inactive ones keep their claim', () => {
    expect(listenClaimOf(oas({ listenPath: { value: '/p/' } }, { internal: true }))).toBeUndefined();
    expect(listenClaimOf(recordFromClassic({ api_id: 'c', internal: true, proxy: { listen_path: '/c/' } }, NOW))).toBeUndefined();
    expect(listenClaimOf(oas({ listenPath: { value: '/p/' } }, { active: false }))).toEqual({ domain: '', path: '/p' });
  });

  it('compares claims by domain and path', () => {
    expect(sameClaim({ domain: '', path: '/a' }, { domain: '', path: '/a' })).toBe(true);
    expect(sameClaim({ domain: 'x', path: '/a' }, { domain: '', path: '/a' })).toBe(false);
    expect(sameClaim(undefined, undefined)).toBe(true);
    expect(sameClaim(undefined, { domain: '', path: '/' })).toBe(false);
  });
});
