/** The emulator hands stream records to a function as Lambda does: binary attributes as base64 text. */
import { describe, expect, it } from 'vitest';
import { asDelivered } from '../../infra/local/emulator/stream-mappings';

describe('a stream event as delivered', () => {
  it('carries a binary attribute (B, and each of a BS) as base64 text, as Lambda does, and the rest as it was', () => {
    const body = new Uint8Array([0x1f, 0x8b, 0x08, 0x00]);
    const event = { Records: [{ dynamodb: { NewImage: { body: { B: body }, set: { BS: [Buffer.from('ab')] }, n: { N: '1' }, s: { S: 'x' } } } }] };
    expect(asDelivered(event)).toEqual({
      Records: [{ dynamodb: { NewImage: { body: { B: 'H4sIAA==' }, set: { BS: ['YWI='] }, n: { N: '1' }, s: { S: 'x' } } } }],
    });
  });
});
