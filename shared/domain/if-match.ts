import { BadRequest } from '../errors';

/**
 * What an `If-Match` header asks of the stored object (contract §3, RFC 9110 §13.1.1): `'*'`,
 * any current version; otherwise one of the listed versions. If-Match compares strongly, so a
 * weak tag (`W/"3"`) never matches: it is parsed and dropped, and a list of weak tags only is
 * an empty list, which nothing satisfies (412).
 */
export type IfMatch = '*' | readonly number[];

/** Tags one header may list (a DynamoDB `IN` takes 100 operands; no client needs more). */
const IF_MATCH_MAX_TAGS = 20;

const TAG = /^(W\/)?(?:"(\d{1,15})"|(\d{1,15}))$/;
const MALFORMED = `If-Match must be *, or up to ${IF_MATCH_MAX_TAGS} comma-separated ETags this service sent, such as "3"`;

/** Parses the header; 400 for anything but `*` or a list of this service's tags (a bare number is taken as its tag). */
export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const parts = header.split(',');
  if (parts.length > IF_MATCH_MAX_TAGS) throw new BadRequest(MALFORMED);
  const versions: number[] = [];
  for (const part of parts) {
    const m = TAG.exec(part.trim());
    if (!m) throw new BadRequest(MALFORMED);
    if (!m[1]) versions.push(Number(m[2] ?? m[3]));
  }
  return versions;
}

/** Whether an object stored at `version` satisfies the condition (no condition: always). */
export function ifMatchAllows(cond: IfMatch | undefined, version: number): boolean {
  return cond === undefined || cond === '*' || cond.includes(version);
}
