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

export function sealCursor(value: unknown, key: Buffer, list: string): string {
  const salt = randomBytes(SALT_BYTES);
  return `${salt.toString('base64url')}.${seal(JSON.stringify(value), cursorKeyOf(key, salt), list)}`;
}

/** The sealed value, or 400 when the cursor was not issued by this service for this list. */
export function openCursor(cursor: string, key: Buffer, list: string): unknown {
  const dot = cursor.indexOf('.');
  const salt = Buffer.from(cursor.slice(0, Math.max(0, dot)), 'base64url');
  const text = salt.length === SALT_BYTES ? unseal(cursor.slice(dot + 1), cursorKeyOf(key, salt), list) : undefined;
  if (text !== undefined) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      /* cannot happen for a cursor we sealed; refused below */
    }
  }
  throw new BadRequest('cursor is not valid for this list', [{ path: 'query.cursor', message: 'unknown cursor' }]);
}
