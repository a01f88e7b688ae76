/**
 * The primary key of every item of the one table. Each resource's store module
 * (shared/store/<resource>.ts) builds the keys of its own items and no other module builds them;
 * ids reaching a builder were validated by the route schemas (contract §4), so `#` cannot appear
 * in them.
 */
export type StorageKey = { PK: string; SK: string };

/**
 * DynamoDB's limits on a key attribute, in UTF-8 bytes (table and index keys alike). Keys built
 * from ids, e-mails and user names stay far below them by their schemas (docs/reference/limits.md); client
 * text without such a bound (an API name) goes through `textSortKey`.
 */
export const KEY_BYTES = { partition: 2048, sort: 1024 } as const;

/** Index sort key that orders by time and stays unique. */
export const timeSortKey = (iso: string, id: string) => `${iso}#${id}`;

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, cut between characters. */
export function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.min(maxBytes, bytes.length);
  // Back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * Index sort key that orders by client text and stays unique: the text, cut to what leaves room
 * for `#<id>` within DynamoDB's 1,024 bytes, then the id. Texts that agree on the kept prefix sort
 * by id; no text, however long or multibyte, makes the key too large. The kept text is well-formed
 * UTF-8 (a lone surrogate becomes U+FFFD, as DynamoDB would store it), so the key round-trips
 * through a cursor unchanged.
 */
export function textSortKey(text: string, id: string): string {
  const suffix = `#${id}`;
  return `${cutUtf8(text, KEY_BYTES.sort - Buffer.byteLength(suffix))}${suffix}`;
}
