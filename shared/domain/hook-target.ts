/**
 * Credentials in a webhook's target URL (its userinfo, query parameters named like credentials)
 * are write-only, as its header values are (contract §9): reads show each as CREDENTIAL_MASK, and
 * a write that sends the mask in one's place keeps the stored one, so a read can be sent back.
 */
import { BadRequest } from '../errors';
import { keepMaskedUrlCredentials } from './credential-members';

/** The target to store: masked credentials taken from the stored target; a mask with nothing stored in its place is 400. */
export function keepMaskedTargetCredentials(sent: string, stored: string | undefined): string {
  const { url, unknown } = keepMaskedUrlCredentials(sent, stored);
  if (unknown.length) {
    throw new BadRequest(`target_path has ******** in place of ${unknown.join(', ')}, which keeps a stored value, and this webhook has none there`, [
      { path: 'body.target_path', message: `******** keeps the stored ${unknown.join(', ')}; there is none to keep` },
    ]);
  }
  return url;
}
