/**
 * The document's URL patterns (shared/schemas/url-patterns.ts) admit only what the server's URL
 * parser takes: fast-check draws URLs from each pattern itself and every one must pass the same
 * check the schema makes (a client generating from the document never meets a 400 for the URL's
 * form). The patterns are the ones the document publishes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/openapi/document';
import { targetRefusal } from '../../shared/schemas/webhook-target';
import { HTTP_URL_PATTERN, REDIRECT_URIS_PATTERN, RESERVED_HOST_URL_PATTERN } from '../../shared/schemas/url-patterns';
import { isHttpUrl } from '../../shared/domain/urls';

type Json = Record<string, any>;
const doc = openApiDocument() as Json;
const schemas = doc.components.schemas as Json;
const RUNS = 5_000;

/** What oauth.ts's redirectUri takes: every `;`-separated part, trimmed, is an absolute URI. */
const redirectTaken = (v: string) =>
  v.split(';').every((u) => {
    try {
      return new URL(u.trim()).protocol.length > 1;
    } catch {
      return false;
    }
  });

describe('URL patterns of the document', () => {
  it('are the ones the document gives webhook targets, import URLs, upstreamURL and redirect URIs', () => {
    const target = schemas.WebhookInput.properties.target_path;
    expect(target.pattern).toBe(HTTP_URL_PATTERN);
    expect(target.not).toEqual({ pattern: RESERVED_HOST_URL_PATTERN });
    expect(schemas.ImportUrl.properties.url.pattern).toBe(HTTP_URL_PATTERN);
    const upstream = doc.paths['/api/apis/oas/import'].post.parameters.find((p: Json) => p.name === 'upstreamURL');
    expect(upstream.schema.pattern).toBe(HTTP_URL_PATTERN);
    expect(schemas.OAuthClientCreate.properties.redirect_uri.pattern).toBe(REDIRECT_URIS_PATTERN);
  });

  it('refuse the hosts the URL parser refuses, which the document admitted before (http://^:1)', () => {
    // The document's own patterns, as a client reads them.
    const http = new RegExp(schemas.WebhookInput.properties.target_path.pattern, 'u');
    for (const u of ['http://^:1', 'http://a b/', 'http://a.123/', 'http://a.xn--zz/', 'http://[::1::]/', 'http://x:65536/', 'http://a|b/', 'https://']) {
      expect(isHttpUrl(u), u).toBe(false);
      expect(http.test(u), u).toBe(false);
    }
    for (const u of ['https://api.example.com:8443/a?b#c', 'http://127.0.0.1:8080/hook', 'http://[::1]:9/', 'http://user:pw@up.example/x']) {
      expect(http.test(u), u).toBe(true);
    }
    const redirect = new RegExp(schemas.OAuthClientCreate.properties.redirect_uri.pattern, 'u');
    for (const u of ['a://^', 'http:', 'file://a:80/', 'https://^/cb', 'myapp://x\\y']) {
      expect(redirectTaken(u), u).toBe(false);
      expect(redirect.test(u), u).toBe(false);
    }
    for (const u of ['https://app.example/cb', 'com.example.app:/oauth2redirect', 'myapp://cb', 'https://a.example/cb;myapp://cb']) {
      expect(redirect.test(u), u).toBe(true);
    }
  });

  it('an http(s) URL drawn from the pattern is one the schemas take (webhook targets: but for the address rules)', () => {
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(HTTP_URL_PATTERN, 'u')), (u) => {
        expect(isHttpUrl(u), u).toBe(true);
        expect(targetRefusal(u, true), u).toBeUndefined();
      }),
      { numRuns: RUNS, seed: 38 },
    );
  });

  it('a webhook target the document admits names no reserved host', () => {
    const admitted = (u: string) => new RegExp(HTTP_URL_PATTERN, 'u').test(u) && !new RegExp(RESERVED_HOST_URL_PATTERN, 'u').test(u);
    for (const u of ['http://localhost/hook', 'http://LocalHost:80/', 'http://a.localhost/', 'http://metadata.google.internal/x']) {
      expect(targetRefusal(u, false), u).toBeDefined();
      expect(admitted(u), u).toBe(false);
    }
    expect(admitted('https://hooks.example/h')).toBe(true);
  });

  it('redirect URIs drawn from the pattern are ones the schema takes', () => {
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(REDIRECT_URIS_PATTERN, 'u')), (v) => {
        expect(redirectTaken(v), v).toBe(true);
      }),
      { numRuns: RUNS, seed: 38 },
    );
  });
});
