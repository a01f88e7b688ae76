/** Objects with an own `constructor` member reach DynamoDB as the maps they are (contract §3: never a 5xx). */
import { convertToAttr, marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { marshallableInput } from '../../shared/store/db/own-constructor';

const OPTIONS = { removeUndefinedValues: true, convertEmptyValues: false };
/** As the document client marshals an attribute map (an item, a key, expression values): attribute by attribute. */
const roundTrip = (attributes: Record<string, unknown>) =>
  unmarshall(Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, convertToAttr(v, OPTIONS)])));

describe('marshallableInput', () => {
  const session = { quota_max: -1, meta_data: { constructor: { name: 'Boolean', n: [1, { constructor: 'x' }] }, valueOf: 'v' }, constructor: 'x' };

  it('the marshaller alone refuses or mangles such objects', () => {
    expect(() => roundTrip({ session })).toThrow();
    expect(unmarshall(marshall({ m: { constructor: { name: 'Boolean' } } }, OPTIONS))).not.toEqual({ m: { constructor: { name: 'Boolean' } } });
  });

  it('items, keys and expression values marshal and read back exactly as sent', () => {
    const input = marshallableInput({ TableName: 't', Item: { PK: 'K', constructor: 'top', session }, ExpressionAttributeValues: { ':s': session } });
    expect(roundTrip(input.Item)).toEqual({ PK: 'K', constructor: 'top', session });
    expect(roundTrip(input.ExpressionAttributeValues)).toEqual({ ':s': session });
    const tx = marshallableInput({ TransactItems: [{ Put: { TableName: 't', Item: { PK: 'K', session } } }] });
    expect(roundTrip(tx.TransactItems[0]!.Put.Item)).toEqual({ PK: 'K', session });
  });

  it('leaves inputs without such members untouched (same objects)', () => {
    const input = { TableName: 't', Item: { PK: 'K', m: { a: [1, { b: 2 }] } } };
    expect(marshallableInput(input)).toBe(input);
  });
});
