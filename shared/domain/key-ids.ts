import { randomHex, sha256Hex } from '../lib/hashing';

/**
 * Key ids (contract §4): `<org_id><32 hex>`, or 32 hex when the organisation is blank, so that
 * keys made by a caller's own algorithm (blank org) are not prefixed or managed by the service.
 */
export function newKeyId(orgId?: string): string {
  return `${orgId?.trim() ?? ''}${randomHex(16)}`;
}

/** Keys are stored and looked up only under this hash; the clear key is shown once. */
export function keyHash(key: string): string {
  return sha256Hex(key);
}

/** API `api_id` when the client gives none: 32 lowercase hex. */
export const newApiId = (): string => randomHex(16);
