/**
 * List cursors: what a list needs to continue (its storage start key, or an offset), sealed with
 * the service's cursor key and bound to the list it came from. Callers see an opaque token that
 * names no storage attribute; anything this service did not issue for this very list (forged,
 * altered, another list's, another organisation's) does not open, so it is refused (400) before
 * storage sees it. Each cursor is sealed under its own key (HKDF with a random salt), so the
 * number of cursors ever issued never nears AES-GCM's limit per key.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { BadRequest } from '../errors';
import { seal, unseal } from './sealed';

const SALT_BYTES = 16;

const cursorKeyOf = (key: Buffer, salt: Buffer) => Buffer.from(hkdfSync('sha256', key, salt, 'gw-management cursor', 32));

/** A cursor carrying `text` as is (UTF-8, nothing escaped): for start keys, whose size is bounded. */
export function sealCursorText(text: string, key: Buffer, list: string): string {
  const salt = randomBytes(SALT_BYTES);
  return `${salt.toString('base64url')}.${seal(text, cursorKeyOf(key, salt), list)}`;
}

/** The sealed text, or 400 when the cursor was not issued by this service for this list. */
export function openCursorText(cursor: string, key: Buffer, list: string): string {
  const dot = cursor.indexOf('.');
  const salt = Buffer.from(cursor.slice(0, Math.max(0, dot)), 'base64url');
  const text = salt.length === SALT_BYTES ? unseal(cursor.slice(dot + 1), cursorKeyOf(key, salt), list) : undefined;
  if (text === undefined) throw invalidCursor();
  return text;
}

export function sealCursor(value: unknown, key: Buffer, list: string): string {
  return sealCursorText(JSON.stringify(value), key, list);
}

/** The sealed value, or 400 when the cursor was not issued by this service for this list. */
export function openCursor(cursor: string, key: Buffer, list: string): unknown {
  try {
    return JSON.parse(openCursorText(cursor, key, list)) as unknown;
  } catch (e) {
    // A cursor this service sealed as JSON always parses; anything else is refused as unknown.
    throw e instanceof BadRequest ? e : invalidCursor();
  }
}

/**
 * Strings as one text, each as `<length>:<value>`: unlike JSON nothing is escaped, so a start key
 * takes in a cursor no more bytes than in the table (a name of quotes or control characters
 * would take up to six times as many as JSON), and a cursor stays within the 2,048 characters
 * the lists accept (contract §5).
 */
export function packStrings(values: readonly string[]): string {
  return values.map((v) => `${v.length}:${v}`).join('');
}

/** The strings `packStrings` joined, or undefined when the text is not such a join. */
export function unpackStrings(text: string): string[] | undefined {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const colon = text.indexOf(':', at);
    const digits = text.slice(at, colon);
    if (colon < 0 || !/^\d{1,7}$/.test(digits)) return undefined;
    const end = colon + 1 + Number(digits);
    if (end > text.length) return undefined;
    out.push(text.slice(colon + 1, end));
    at = end;
  }
  return out;
}

const invalidCursor = () => new BadRequest('cursor is not valid for this list', [{ path: 'query.cursor', message: 'unknown cursor' }]);
