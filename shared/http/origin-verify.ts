/**
 * The edge's proof (docs/operating/security.md "Edge protection"). With `-c edge=on` CloudFront adds X-Origin-Verify
 * with a secret value to every request it forwards, and every HTTP function gets that value in
 * ORIGIN_VERIFY. A request without it did not pass CloudFront and its WAF (it was sent to the
 * HTTP API's own execute-api address): it is refused with 403, in the group's envelope, before its
 * credential, body or any storage is looked at. Without ORIGIN_VERIFY (npm start, the tests, a
 * stage without the edge) nothing is checked.
 */
import { config } from '../config';
import { secretEquals } from '../lib/hashing';
import { AppError } from '../errors';
import type { Group } from '../route-def';
import { errorResult, finalise, type Result } from './respond';

export const ORIGIN_VERIFY_HEADER = 'X-Origin-Verify';

/** The 403 for a request that did not come through the edge, or undefined when it may go on. */
export function edgeRefusal(headers: Record<string, string | undefined> | undefined, group: Group, requestId?: string): Result | undefined {
  const expected = config().originVerify;
  if (!expected) return undefined;
  // Payload 2.0 header names arrive lower-cased.
  const given = headers?.[ORIGIN_VERIFY_HEADER.toLowerCase()];
  if (given !== undefined && secretEquals(given, expected)) return undefined;
  return finalise(
    errorResult(group, new AppError(403, "Send requests to the service's public address, not to its API's own endpoint"), requestId ?? ''),
    group,
    requestId,
  );
}
