import { describe, expect, it } from 'vitest';
import { acceptedEncoding } from '../../shared/http/content-encoding';
import { compress } from '../../shared/openapi/compressed';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

describe('acceptedEncoding: which compressed form of a body the request takes', () => {
  const offered = ['br', 'gzip'] as const;
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
    // Nothing acceptable at all: the document plain, rather than a 406.
    ['gzip;q=0, br;q=0, identity;q=0', 'identity'],
  ])('Accept-Encoding %j: %s', (header, expected) => {
    expect(acceptedEncoding({ 'accept-encoding': header }, offered)).toBe(expected);
  });
});

describe('compress', () => {
  it('gives bytes that decode to the text', () => {
    const text = JSON.stringify({ paths: Array.from({ length: 200 }, (_, i) => `/route/${i}`) });
    expect(brotliDecompressSync(compress(text, 'br')).toString()).toBe(text);
    expect(gunzipSync(compress(text, 'gzip')).toString()).toBe(text);
  });
});
