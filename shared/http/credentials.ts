import type { Group } from '../route-def';
import { secretEquals } from '../domain/hashing';
import { accessKeyCache } from '../store/credential-cache';
import { findAccessKeyOwner } from '../store/users';
import { Unauthorized } from '../errors';
import { deploymentSecret } from '../secrets';

export type Principal =
  | { group: 'dashboard'; orgId: string; userId: string }
  | { group: 'gateway' }
  | { group: 'admin' }
  | { group: 'public' };

const ACCESS_KEY = /^[A-Za-z0-9._~+/=-]{1,256}$/;

type Headers = Record<string, string | undefined>;

/** Checks the credential of the route's group (decisions §2); any failure is 401. */
export async function authenticate(group: Group, headers: Headers): Promise<Principal> {
  switch (group) {
    case 'public':
      return { group };
    case 'gateway':
      return checkSecret(headers['x-gw-authorization'], 'gw', 'gateway');
    case 'admin':
      return checkSecret(headers['admin-auth'], 'admin', 'admin');
    case 'dashboard': {
      const raw = headers.authorization?.trim();
      const token = raw?.replace(/^Bearer\s+/i, '');
      if (!token || !ACCESS_KEY.test(token)) throw new Unauthorized('Missing or malformed Authorization header');
      let owner = accessKeyCache.get(token);
      if (!owner) {
        owner = await findAccessKeyOwner(token);
        if (!owner?.active) throw new Unauthorized('Access key is not valid');
        // Stored only when read from the table, so its time runs from that read (not from each use).
        accessKeyCache.set(token, owner);
      }
      return { group, orgId: owner.org_id, userId: owner.user_id };
    }
  }
}

async function checkSecret<G extends 'gateway' | 'admin'>(given: string | undefined, which: 'gw' | 'admin', group: G) {
  const header = which === 'gw' ? 'X-Gw-Authorization' : 'Admin-Auth';
  if (!given) throw new Unauthorized(`Missing ${header} header`);
  if (!secretEquals(given, await deploymentSecret(which))) throw new Unauthorized(`${header} is not valid`);
  return { group } as { group: G };
}
