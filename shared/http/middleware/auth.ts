/** Middleware: the credential of the route's group (contract §2); any failure is 401, a suspended organisation's user 403. */
import { Unauthorized } from '../../errors';
import { setActor, type Actor } from '../../request-context';
import type { Group, RouteSpec } from '../../route-def';
import { secretAccepted } from '../../secrets';
import { activeOwnerOf } from '../../services/credentials';
import { assertOrgActive } from '../../services/org-limits';
import { developerOfSession } from '../../services/developers';
import type { HttpMiddleware, Principal } from './state';

const ACCESS_KEY = /^[A-Za-z0-9._~+/=-]{1,256}$/;

type Headers = Record<string, string | undefined>;

/** The bearer token of an Authorization header (the bare token works too), or 401. */
function bearer(headers: Headers): string {
  const token = headers.authorization?.trim().replace(/^Bearer\s+/i, '');
  if (!token || !ACCESS_KEY.test(token)) throw new Unauthorized('Missing or malformed Authorization header');
  return token;
}

/** Who sends the request, by the credential its route's group takes. */
async function principalOf(group: Group, headers: Headers): Promise<Principal> {
  switch (group) {
    case 'public':
      return { group };
    case 'developer': {
      // Whose portal the path names is checked once the path is validated (shared/http/create-handler.ts).
      const token = bearer(headers);
      const developer = await developerOfSession(token);
      return { group, orgId: developer.org_id, developer, token };
    }
    case 'gateway':
      return checkSecret(headers['x-gw-authorization'], 'gw', 'gateway');
    case 'admin':
      return checkSecret(headers['admin-auth'], 'admin', 'admin');
    case 'dashboard': {
      const token = bearer(headers);
      const owner = await activeOwnerOf(token);
      if (!owner) throw new Unauthorized('Access key is not valid');
      // A suspended organisation's users hold valid keys: 403, not 401 (contract §9).
      await assertOrgActive(owner.org_id);
      return { group, orgId: owner.org_id, userId: owner.user_id, email: owner.email, permissions: owner.permissions };
    }
  }
}

async function checkSecret<G extends 'gateway' | 'admin'>(given: string | undefined, which: 'gw' | 'admin', group: G) {
  const header = which === 'gw' ? 'X-Gw-Authorization' : 'Admin-Auth';
  if (!given) throw new Unauthorized(`Missing ${header} header`);
  // During a rotation window two values are accepted (docs/operating/security.md "Rotate a deployment secret").
  if (!(await secretAccepted(which, given))) throw new Unauthorized(`${header} is not valid`);
  return { group } as { group: G };
}

/** Who the principal is in the audit trail; undefined on public routes (a sign-up names its developer itself). */
function actorOf(p: Principal): Actor | undefined {
  if (p.group === 'dashboard') return { type: 'user', id: p.userId, ...(p.email ? { email: p.email } : {}) };
  if (p.group === 'developer') return { type: 'developer', id: p.developer.id };
  return p.group === 'public' ? undefined : { type: p.group };
}

export const auth = (route: RouteSpec): HttpMiddleware => ({
  name: 'auth',
  before: async (request) => {
    const principal = (request.internal.principal = await principalOf(route.group, request.event.headers ?? {}));
    const actor = actorOf(principal);
    if (actor) setActor(actor);
  },
});
