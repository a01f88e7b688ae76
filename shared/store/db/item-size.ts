/**
 * DynamoDB's item size, computed before a write so that an object too large to store is a 413
 * naming it, not DynamoDB's ValidationException (a 500) after part of a request has run.
 *
 * The rules are DynamoDB's ("Item sizes and formats" in its developer guide): attribute names
 * and strings count their UTF-8 bytes; binary values their raw bytes; a number 1 byte per two
 * significant digits plus 1 (DynamoDB calls this approximate; `numberSize` has the exact rule,
 * checked against DynamoDB Local in test/integration/item-size.test.ts); null and booleans 1; a
 * list or map 3 bytes plus 1 byte per element (a map element also counts its name).
 *
 * Values are the document client's native ones (before marshalling): `undefined` members are
 * dropped as `removeUndefinedValues` drops them; a `Set` is a string, number or binary set.
 */
import { PayloadTooLarge } from '../../errors';

/** DynamoDB's largest item: 400 KB, attribute names included. */
export const MAX_ITEM_BYTES = 400 * 1024;
/** DynamoDB's largest TransactWriteItems payload. */
export const MAX_TRANSACTION_BYTES = 4 * 1024 * 1024;

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Bytes of a number. DynamoDB keeps base-100 digits aligned on the decimal point (1.5 is 01.50,
 * two of them), one byte each, plus an exponent byte, plus a terminator byte when negative.
 */
export function numberSize(n: number | bigint | string): number {
  const text = String(n).trim().toLowerCase();
  const [mantissa = '', exponent = '0'] = text.replace(/^[+-]/, '').split('e');
  const [int = '', frac = ''] = mantissa.split('.');
  let digits = int + frac;
  // How many of `digits` stand before the decimal point.
  let point = int.length + Number(exponent);
  let leading = 0;
  while (digits[leading] === '0') leading++;
  let end = digits.length;
  while (end > leading && digits[end - 1] === '0') end--;
  digits = digits.slice(leading, end);
  point -= leading;
  if (digits === '') return 1;
  const pairOf = (power: number) => Math.floor(power / 2);
  const pairs = pairOf(point - 1) - pairOf(point - digits.length) + 1;
  return pairs + 1 + (text.startsWith('-') ? 1 : 0);
}

function isDefined(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/** Bytes of one attribute value (without its name). */
function valueSize(v: unknown): number {
  if (v === null || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return utf8(v);
  if (typeof v === 'number' || typeof v === 'bigint') return numberSize(v);
  if (v instanceof Uint8Array) return v.byteLength;
  if (v instanceof ArrayBuffer) return v.byteLength;
  if (v instanceof Set) {
    let n = 0;
    for (const e of v) n += valueSize(e);
    return n;
  }
  if (Array.isArray(v)) {
    let n = 3;
    for (const e of v) if (isDefined(e)) n += 1 + valueSize(e);
    return n;
  }
  if (typeof v === 'object') {
    // lib-dynamodb's NumberValue keeps a number's exact text in `value`.
    // Client JSON may hold an own `constructor` member: that object is a plain map, whatever it says.
    if (!Object.hasOwn(v, 'constructor') && v.constructor?.name === 'NumberValue' && typeof (v as { value?: unknown }).value === 'string') {
      return numberSize((v as { value: string }).value);
    }
    let n = 3;
    for (const [k, e] of Object.entries(v)) if (isDefined(e)) n += 1 + utf8(k) + valueSize(e);
    return n;
  }
  return 0;
}

/** Bytes of a whole item: each top-level attribute's name and value. */
export function itemSize(item: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const [k, v] of Object.entries(item)) if (isDefined(v)) n += utf8(k) + valueSize(v);
  return n;
}

/** What each entity is called in a 413, so a caller knows which of its objects is too large. */
const LABELS: Record<string, string> = {
  org: 'organisation',
  user: 'user',
  key: 'key',
  org_session: 'organisation session',
  policy: 'policy',
  hook: 'webhook',
  oauth_client: 'OAuth client',
  asset: 'template',
  api: 'API definition',
  api_part: 'API definition',
};

const kb = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;

/** 413 when an item is larger than DynamoDB stores; answers its size otherwise. */
export function assertItemFits(item: Readonly<Record<string, unknown>>): number {
  const size = itemSize(item);
  if (size > MAX_ITEM_BYTES) {
    const label = LABELS[String(item.entity)] ?? 'object';
    throw new PayloadTooLarge(`The ${label} is larger than DynamoDB's 400 KB item limit (${kb(size)} as stored); make it smaller`);
  }
  return size;
}

type Input = Record<string, unknown>;
type PutLike = { Put?: { Item?: Input }; Update?: { Key?: Input }; Delete?: { Key?: Input }; ConditionCheck?: { Key?: Input } };

/**
 * Checks every item a write command would store: PutItem, each Put of a TransactWriteItems (and
 * the transaction's 4 MB payload, counting the keys of its other members), each PutRequest of a
 * BatchWriteItem. Updates only change counters and small fields here, so they are not sized.
 */
export function assertWriteFits(input: Input): void {
  if (input.Item && typeof input.Item === 'object') assertItemFits(input.Item as Input);
  const tx = input.TransactItems as PutLike[] | undefined;
  if (Array.isArray(tx)) {
    let total = 0;
    for (const t of tx) {
      if (t.Put?.Item) total += assertItemFits(t.Put.Item);
      const key = t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key;
      if (key) total += itemSize(key);
    }
    if (total > MAX_TRANSACTION_BYTES) {
      throw new PayloadTooLarge(`The change is larger than DynamoDB's 4 MB transaction limit (${kb(total)}); make it smaller`);
    }
  }
  const batch = input.RequestItems as Record<string, Array<{ PutRequest?: { Item?: Input } }>> | undefined;
  if (batch && typeof batch === 'object') {
    for (const requests of Object.values(batch)) {
      if (Array.isArray(requests)) for (const r of requests) if (r.PutRequest?.Item) assertItemFits(r.PutRequest.Item);
    }
  }
}
