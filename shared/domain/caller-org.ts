import { BadRequest } from '../errors';

/**
 * The organisation a dashboard write stamps on what it creates or replaces (contract §2): the
 * caller's. A body may leave it out (absent, null or '') or repeat it; another one, at the body
 * member `path`, is 400 and nothing is written.
 */
export function callerOrg(given: unknown, org: string, path: string): string {
  if (given === undefined || given === null || given === '' || given === org) return org;
  throw new BadRequest(`${path} names another organisation than the caller's`, [{ path, message: "must be absent or the caller's organisation" }]);
}
