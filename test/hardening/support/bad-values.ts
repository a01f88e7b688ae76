/**
 * The hostile values the fuzzer aims at fields: wrong types, boundary numbers, ids that could
 * break a storage key or a path, look-alike characters, oversize texts. Raw number tokens such as
 * 1e309 cannot be made by JSON.stringify, so they travel as `Raw` and are spliced into the text.
 */
import fc from 'fast-check';
import { LIMITS } from '../../../shared/limits';
import type { Leaf } from './zod-walk';

/** A literal JSON token placed into the body text as it is (1e309, -0, 9007199254740993). */
export class Raw {
  constructor(readonly token: string) {}
}

/** Nested objects n levels deep, built without recursion. */
export function nested(n: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

/** Ids that break `#`-separated storage keys, paths, or look like another id. */
export const BAD_IDS: readonly string[] = [
  'a#b',
  '#',
  'ORG#x',
  'a/b',
  '/',
  '..',
  '../..',
  '../../etc/passwd',
  '.%2e',
  'a b',
  ' ',
  '',
  'a\u0000b',
  'a\nb',
  'a?b',
  'a%b',
  'a\\b',
  'a"b',
  "a'b",
  'a<b>',
  'a;b',
  'a,b',
  'a*b',
  'a:b',
  'a@b',
  'a|b',
  'a{b}',
  // Unicode look-alikes: Cyrillic a, fullwidth letters, zero-width space, non-breaking space, RTL override.
  '\u0430pi',
  '\uff41\uff42\uff43',
  'abc\u200b',
  'ab\u00a0c',
  '\u202eabc',
  'A\u0301',
  '\ud83d\ude00',
  'x'.repeat(129),
  '\u{1F4A9}'.repeat(3),
  '\ud800',
];

const RAW_NUMBERS = ['1e309', '-1e309', '9007199254740993', '-9007199254740993', '1e400', '-0', '1e21', '123456789012345678901234567890'];

const anyJson = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/** Values of every JSON type but the leaf's own, plus the leaf's own type out of its bounds. */
export function badValueFor(leaf: Leaf): fc.Arbitrary<unknown> {
  const arbs: fc.Arbitrary<unknown>[] = [anyJson, fc.constant(null)];
  switch (leaf.kind) {
    case 'string': {
      arbs.push(fc.integer(), fc.boolean(), fc.constant({}), fc.constant([]), fc.constant(['a']));
      arbs.push(fc.constantFrom(...BAD_IDS), fc.string({ maxLength: 40, unit: 'binary' }));
      const over = (leaf.maxLength ?? LIMITS.longString) + 1;
      arbs.push(fc.constant('a'.repeat(over)), fc.constant('\u00e9'.repeat(over)));
      if (leaf.minLength) arbs.push(fc.constant('a'.repeat(Math.max(0, leaf.minLength - 1))));
      break;
    }
    case 'number': {
      arbs.push(fc.string({ maxLength: 10 }), fc.constant('1'), fc.boolean(), fc.constant([1]), fc.constant({ n: 1 }));
      arbs.push(fc.constantFrom(...RAW_NUMBERS).map((t) => new Raw(t)));
      arbs.push(fc.constant(2 ** 53 + 2), fc.constant(-(2 ** 53) - 2), fc.constant(Number.MAX_VALUE));
      if (leaf.int)
        arbs.push(
          fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((d) => !Number.isInteger(d)),
          fc.constant(0.5),
        );
      // Ranges as wide as storage's (±(2^53−1)) leave no integer between them and these bounds.
      if (leaf.minimum !== undefined) {
        arbs.push(fc.constant(leaf.minimum - 1));
        if (Math.floor(leaf.minimum) - 1 >= -1e9) arbs.push(fc.integer({ min: -1e9, max: Math.floor(leaf.minimum) - 1 }));
      } else arbs.push(fc.constant(-1));
      if (leaf.maximum !== undefined) {
        arbs.push(fc.constant(leaf.maximum + 1));
        if (Math.ceil(leaf.maximum) + 1 <= 2 ** 31) arbs.push(fc.integer({ min: Math.ceil(leaf.maximum) + 1, max: 2 ** 31 }));
      }
      break;
    }
    case 'boolean':
      arbs.push(fc.constantFrom('true', 'false', 1, 0, 'yes', 'on', [], {}));
      break;
    case 'enum':
    case 'literal':
      arbs.push(fc.string({ maxLength: 12 }), fc.constantFrom('get', 'Post ', 'PUT\n', 'oas-template\u0000', 'public '), fc.integer());
      break;
    case 'object':
    case 'record':
      arbs.push(fc.string({ maxLength: 10 }), fc.integer(), fc.constant([]), fc.constant([{}]), fc.boolean());
      arbs.push(fc.constantFrom(...BAD_IDS).map((k) => ({ [k]: {} })));
      break;
    case 'array':
      arbs.push(fc.string({ maxLength: 10 }), fc.integer(), fc.constant({}), fc.constant({ 0: 'a' }), fc.array(anyJson, { minLength: 1, maxLength: 4 }));
      break;
    default:
      break;
  }
  return fc.oneof(...arbs);
}

/** Query values: always text; the schema decides which of these it refuses. */
export function badQueryValue(leaf: Leaf): fc.Arbitrary<string> {
  const max = leaf.maxLength ?? 1024;
  return fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ maxLength: 12, unit: 'binary' }),
    fc.constantFrom(
      '',
      ' ',
      'abc',
      '-1',
      '-0',
      '0',
      '1.5',
      '1e309',
      '-1e309',
      '9007199254740993',
      '0x10',
      '1_000',
      'NaN',
      'Infinity',
      'true ',
      'TRUE',
      'yes',
      'null',
      'undefined',
      '[]',
      '{}',
      '%00',
      '\u0000',
      '..',
      '../..',
      'a#b',
      'a/b',
      '\u0430',
      '\uff11',
      '1\u200b',
      '99999999999999999999',
      '-99999999',
      '1000001',
      '101',
      '-created_at ',
      'name,name',
    ),
    fc.constantFrom(...BAD_IDS),
    fc.constant('a'.repeat(Math.min(max + 1, 4000))),
  );
}
