/** "The body's id must equal the path's id", one rule for every update that takes an id in both. */
import { describe, expect, it } from 'vitest';
import { assertBodyIdIsPathId } from '../../shared/domain/path-ids';

describe('assertBodyIdIsPathId', () => {
  it('takes a body that repeats the path id or leaves it out (absent, null or empty)', () => {
    for (const bodyId of ['p1', undefined, null, '']) expect(() => assertBodyIdIsPathId('policy', 'p1', bodyId, 'body.id')).not.toThrow();
  });

  it('refuses another id with a 400 naming both ids and the body member', () => {
    let error: unknown;
    try {
      assertBodyIdIsPathId('OAuth client', 'c1', 'c2', 'body.client_id');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      status: 400,
      message: 'The body names OAuth client c2 but the path names c1',
      details: [{ path: 'body.client_id', message: 'must equal the OAuth client id of the path' }],
    });
  });
});
