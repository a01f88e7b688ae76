import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeParts, encodeParts, StoredTooLarge } from '../../shared/store/db/stored-parts';
import { LIMITS } from '../../shared/limits';

/** An OpenAPI-like document of roughly `bytes` of JSON, with random text so it does not compress to nothing. */
function bigDocument(bytes: number) {
  const paths: Record<string, unknown> = {};
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const op = {
      get: {
        operationId: `getResource${i}`,
        summary: `Fetch resource ${i} ${randomBytes(24).toString('base64')}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { example: { n: i, f: i / 7, ok: i % 2 === 0, s: 'é✓' } } } } },
      },
    };
    paths[`/resource-${i}/{id}`] = op;
    size += JSON.stringify(op).length + 20;
  }
  return { openapi: '3.0.3', info: { title: 'Big', version: '1' }, paths, 'x-gw-api-gateway': { info: { name: 'Big' } } };
}

describe('chunked storage of large documents', () => {
  it('round-trips a 4 MB document with every chunk within the limit', () => {
    const doc = bigDocument(4 * 1024 * 1024);
    expect(JSON.stringify(doc).length).toBeGreaterThan(4 * 1024 * 1024);
    const parts = encodeParts(doc);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(350_000);
    expect(decodeParts(parts).value).toEqual(doc);
  });

  it('splits into several chunks when the packed form is larger than one', () => {
    const doc = bigDocument(600_000);
    const parts = encodeParts(doc, 50_000);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(50_000);
    expect(decodeParts(parts).value).toEqual(doc);
  });

  it('keeps a small value in one chunk', () => {
    const parts = encodeParts({ a: [1, null, 'x'] });
    expect(parts).toHaveLength(1);
    expect(decodeParts(parts).value).toEqual({ a: [1, null, 'x'] });
  });

  it('fails loudly when a chunk is missing', () => {
    const parts = encodeParts(bigDocument(600_000), 50_000);
    expect(() => decodeParts(parts.slice(0, -1))).toThrow();
  });

  it('refuses to store more than the stored-definition limit of JSON (413), however well it compresses', () => {
    const over = { s: 'x'.repeat(LIMITS.storedJsonBytes) };
    expect(() => encodeParts(over)).toThrow(expect.objectContaining({ status: 413 }));
    expect(decodeParts(encodeParts({ s: 'x'.repeat(LIMITS.storedJsonBytes - 100) })).bytes).toBe(LIMITS.storedJsonBytes - 92);
  });

  it('never decompresses past the limit: a stored bomb is a clear 409, not an allocation', () => {
    // 40 MB of JSON in 40 KB of gzip, as a document stored before the limit could be.
    const bomb = gzipSync(Buffer.from(JSON.stringify({ s: 'x'.repeat(40 * 1024 * 1024) })));
    expect(bomb.length).toBeLessThan(100_000);
    let error: unknown;
    try {
      decodeParts([bomb.subarray(0, 20_000), bomb.subarray(20_000)], 'The stored definition of API a1');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoredTooLarge);
    expect(error).toMatchObject({ status: 409, message: expect.stringMatching(/^The stored definition of API a1 is larger than the 12 MB/) });
    // The cap is zlib's own (maxOutputLength): one byte more than allowed is already refused.
    const exact = gzipSync(Buffer.from(`"${'y'.repeat(998)}"`));
    expect(decodeParts([exact], 'x', 1000).bytes).toBe(1000);
    expect(() => decodeParts([exact], 'x', 999)).toThrow(StoredTooLarge);
  });
});
