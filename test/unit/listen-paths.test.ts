import { describe, expect, it } from 'vitest';
import { recordFromClassic, recordFromOas } from '../../shared/domain/api-builders';
import {
  claimViolations,
  defaultListenPath,
  listenClaimOf,
  listenPathProblem,
  nests,
  normaliseListenPath,
  pathAndAncestors,
  sameClaim,
  servingClaim,
  type HeldClaim,
} from '../../shared/domain/listen-paths';

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
  it('normalises listen paths as request paths are decided, then without a trailing slash; case kept', () => {
    expect(['/pets', '/pets/', 'pets', '//pets//', ' /pets/ ', '/pets/./', '/%70ets', '/x/../pets'].map(normaliseListenPath)).toEqual(Array(8).fill('/pets'));
    expect(normaliseListenPath('/a//b/')).toBe('/a/b');
    expect(normaliseListenPath('/Pets/')).toBe('/Pets');
    expect(normaliseListenPath('/caf%c3%a9/')).toBe('/caf%C3%A9');
    expect(['', '/', '///', undefined, null, 5].map(normaliseListenPath)).toEqual(Array(6).fill('/'));
  });

  it('refuses (400) listen paths upstreams read in different ways, the root on the shared hosts, and ones no request is found under', () => {
    const classic = (listen_path: string, domain?: string) => listenPathProblem(recordFromClassic({ api_id: 'c', proxy: { listen_path }, domain }, NOW));
    expect(classic('/books/')).toBeUndefined();
    expect(classic('/', 'api.acme.example')).toBeUndefined();
    expect(classic('/')).toMatch(/at least one segment/);
    expect(classic('/x/..')).toMatch(/at least one segment/);
    expect(classic('/a%2Fb/')).toMatch(/encoded/);
    expect(classic('/a;v=1/')).toMatch(/;/);
    expect(classic('/a\\b/')).toMatch(/backslash/);
    expect(classic(`/${'a'.repeat(1000)}`)).toMatch(/longer than 1000 bytes/);
    expect(classic(`/${'a/'.repeat(25)}`)).toMatch(/more than 24 segments/);
    expect(classic(`/${'a/'.repeat(24)}`)).toBeUndefined();
    // No listen path: nothing claimed, nothing to refuse.
    expect(listenPathProblem(recordFromClassic({ api_id: 'c' }, NOW))).toBeUndefined();
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
    // An API that names no listen path claims none: the root is written out as `/`.
    expect(listenClaimOf(oas({}))).toBeUndefined();
    expect(listenClaimOf(oas({ listenPath: { value: '/' }, customDomain: { enabled: true, name: 'api.example.com' } }))).toEqual({
      domain: 'api.example.com',
      path: '/',
    });
  });

  it('a classic API claims proxy.listen_path on its domain unless domain_disabled', () => {
    const classic = (def: Record<string, unknown>) => listenClaimOf(recordFromClassic({ api_id: 'c', ...def }, NOW));
    expect(classic({ proxy: { listen_path: '/c/' } })).toEqual({ domain: '', path: '/c' });
    expect(classic({ proxy: { listen_path: '/c/' }, domain: 'c.example' })).toEqual({ domain: 'c.example', path: '/c' });
    expect(classic({ proxy: { listen_path: '/c/' }, domain: 'c.example', domain_disabled: true })).toEqual({ domain: '', path: '/c' });
    expect(classic({})).toBeUndefined();
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

describe('claims nest segment by segment (contract §13)', () => {
  it('equal, or one a prefix of the other by whole segments', () => {
    expect(nests('/a', '/a')).toBe(true);
    expect(nests('/a', '/a/b')).toBe(true);
    expect(nests('/a/b', '/a')).toBe(true);
    expect(nests('/a', '/ab')).toBe(false);
    expect(nests('/a/b', '/a/c')).toBe(false);
    expect(pathAndAncestors('/a/b/c')).toEqual(['/a', '/a/b', '/a/b/c']);
  });
});

describe('the claim that serves a request (contract §13)', () => {
  const held = (path: string, org: string, domain = ''): HeldClaim => ({ domain, path, api_id: `${org}${path}`, org_id: org });
  const candidates = ['/books/internal/data', '/books/internal', '/books', '/'];
  const shared = { host: '', hostOrg: undefined };

  it('the longest listen path of one organisation wins', () => {
    expect(servingClaim(shared, candidates, [held('/books', 'acme'), held('/books/internal', 'acme')])?.api_id).toBe('acme/books/internal');
  });

  it('on the shared hosts, the outermost claim holds the path: another organisation nested under it is never chosen', () => {
    expect(servingClaim(shared, candidates, [held('/books', 'acme'), held('/books/internal', 'evil')])?.api_id).toBe('acme/books');
    expect(servingClaim(shared, candidates, [held('/books/internal', 'evil'), held('/books', 'acme')])?.api_id).toBe('acme/books');
  });

  it('the root never serves on the shared hosts', () => {
    expect(servingClaim(shared, candidates, [held('/', 'evil')])).toBeUndefined();
    expect(servingClaim(shared, candidates, [held('/', 'evil'), held('/books', 'acme')])?.api_id).toBe('acme/books');
  });

  it('a claim on a domain serves only when the domain is granted to its organisation', () => {
    const onHost = [held('/', 'evil', 'books.example'), held('/books', 'acme')];
    expect(servingClaim({ host: 'books.example', hostOrg: undefined }, candidates, onHost)?.api_id).toBe('acme/books');
    expect(servingClaim({ host: 'books.example', hostOrg: 'evil' }, candidates, onHost)?.api_id).toBe('evil/');
    expect(servingClaim({ host: 'books.example', hostOrg: 'acme' }, candidates, onHost)?.api_id).toBe('acme/books');
  });

  it("on a granted domain only its organisation's APIs count: its claims on the domain first, then its shared ones", () => {
    const all = [held('/books', 'acme'), held('/books', 'acme', 'acme.example'), held('/books/internal', 'evil', 'acme.example')];
    expect(servingClaim({ host: 'acme.example', hostOrg: 'acme' }, candidates, all)?.domain).toBe('acme.example');
    expect(servingClaim({ host: 'acme.example', hostOrg: 'acme' }, candidates, [held('/books', 'acme')])?.api_id).toBe('acme/books');
    expect(servingClaim({ host: 'evil.example', hostOrg: 'evil' }, candidates, [held('/books', 'acme')])).toBeUndefined();
  });
});

describe('the report of claims that break the rules (contract §13)', () => {
  const held = (path: string, org: string, domain = ''): HeldClaim => ({ domain, path, api_id: `${org}${domain}${path}`, org_id: org });
  it("names domains not granted to the claim's organisation, the shared root and nestings across organisations, and which is still served", () => {
    const claims = [
      held('/books', 'acme'),
      held('/books/internal', 'evil'),
      held('/', 'evil'),
      held('/', 'evil', '127.0.0.1'),
      held('/', 'acme', 'acme.example'),
      held('/books/admin', 'acme'),
      held('/orders', 'evil'),
    ];
    const report = claimViolations(claims, new Map([['acme.example', 'acme']])).map((v) => [v.claim.api_id, v.rule, v.with?.api_id, v.served]);
    expect(report).toEqual([
      ['acme/books', 'nests with another organisation', 'evil/books/internal', true],
      ['evil/books/internal', 'nests with another organisation', 'acme/books', false],
      ['evil/', 'root on the shared hosts', undefined, false],
      ['evil127.0.0.1/', 'domain not granted', undefined, false],
    ]);
    expect(claimViolations([held('/a', 'x'), held('/a/b', 'x'), held('/c', 'y')], new Map())).toEqual([]);
  });
});
