/**
 * Developers of a portal: sign-up, sign-in and sessions (their own credential, which reaches only
 * the developer routes of their organisation's portal), and the users' side (list, approve,
 * disable, invite). Sign-up and sign-in never tell which e-mails exist: a taken e-mail signs up
 * "the same" and changes nothing, and a sign-in for an unknown e-mail verifies against a decoy
 * hash, so it costs what a known one does.
 */
import { Forbidden, NotFound, TooManyRequests, Unauthorized } from '../errors';
import { newDbId } from '../lib/hashing';
import { PORTAL_LIMITS } from '../limits';
import { pageRequest } from '../domain/paging';
import { decoyHash, hashPassword, verifyPassword } from '../domain/passwords';
import { newToken, signInWindow, signUpState, tokenHash } from '../domain/portal';
import { nowSeconds } from '../domain/quota';
import type { Developer, SignUp } from '../schemas/portal';
import type { PageQuery } from '../schemas/common';
import {
  insertDeveloper,
  loadDeveloper,
  loadDeveloperByEmail,
  loadDeveloperPage,
  loadDeveloperSession,
  loadInvitation,
  putDeveloperSession,
  putInvitation,
  removeDeveloperSession,
  setDeveloperState,
  shownDeveloper,
  signInScopes,
  spendSignInAttempt,
  type DeveloperRecord,
} from '../store/developers';
import { openPortal } from './portal';
import { setActor } from '../request-context';

const notSignedIn = () => new Unauthorized('e-mail or password not valid');

/**
 * POST /portal/{orgID}/developers: signs a developer up under the portal's mode (open: active at
 * once; approval: pending until a user approves; invitation: only with an invitation for this
 * e-mail, which it spends). The answer is the same for a taken e-mail, which changes nothing.
 */
export async function signUp(orgId: string, body: SignUp): Promise<{ state: 'active' | 'pending' }> {
  const settings = await openPortal(orgId);
  const emailLower = body.email_address.toLowerCase();
  const invitation = body.invitation ? tokenHash(body.invitation) : undefined;
  if (invitation) {
    const inv = await loadInvitation(invitation);
    if (!inv || inv.org_id !== orgId || inv.email_lower !== emailLower || inv.expires_at <= nowSeconds()) {
      throw new Forbidden('the invitation is not valid for this e-mail');
    }
  }
  const state = signUpState(settings, invitation !== undefined) as 'active' | 'pending';
  const now = new Date().toISOString();
  const developer: DeveloperRecord = {
    id: newDbId(),
    org_id: orgId,
    email_address: body.email_address,
    email_lower: emailLower,
    name: body.name,
    state,
    created_at: now,
    updated_at: now,
    // Hashed whether or not the e-mail is taken, so the answer's timing names no account.
    password_hash: await hashPassword(body.password),
  };
  // The sign-up is the developer's own act in the audit trail (a public route has no actor of its own).
  setActor({ type: 'developer', id: developer.id });
  await insertDeveloper(developer, invitation);
  return { state };
}

/** Epoch seconds, the clock every window and expiry of this module reads. */
const clock = () => nowSeconds();

/**
 * POST /portal/{orgID}/sessions: spends one attempt of the account's window and one of the source's
 * (429 with Retry-After when either is spent, before any password is checked), then verifies the
 * password. One answer (401) for an unknown e-mail and a wrong password; a right password of a
 * developer not yet approved or disabled is 403.
 */
export async function signIn(orgId: string, email: string, password: string, source: string) {
  await openPortal(orgId);
  const emailLower = email.toLowerCase();
  const now = clock();
  const window = signInWindow(now);
  const scopes = signInScopes(orgId, emailLower, source);
  const [account, from] = await Promise.all([
    spendSignInAttempt(scopes.account, window, PORTAL_LIMITS.signInsPerAccount),
    spendSignInAttempt(scopes.source, window, PORTAL_LIMITS.signInsPerSource),
  ]);
  if (!account || !from) throw new TooManyRequests('too many sign-in attempts; try again later', window.end - now);
  const developer = await loadDeveloperByEmail(orgId, emailLower);
  const matches = await verifyPassword(password, developer?.password_hash ?? (await decoyHash()));
  if (!developer || !matches) throw notSignedIn();
  if (developer.state !== 'active') throw new Forbidden(developer.state === 'pending' ? 'your sign-up awaits approval' : 'this account is disabled');
  const { token, hash } = newToken('session');
  const expires = now + PORTAL_LIMITS.sessionSeconds;
  await putDeveloperSession(hash, { developer_id: developer.id, org_id: orgId, expires_at: expires });
  return { token, expires_at: new Date(expires * 1000).toISOString(), developer: shownDeveloper(developer) };
}

/** Who holds a developer session token: an active developer, or 401. */
export async function developerOfSession(token: string): Promise<Developer> {
  const session = await loadDeveloperSession(tokenHash(token));
  if (!session || session.expires_at <= clock()) throw new Unauthorized('session not valid');
  const developer = await loadDeveloper(session.developer_id);
  if (developer?.state !== 'active' || developer.org_id !== session.org_id) throw new Unauthorized('session not valid');
  return shownDeveloper(developer);
}

/** GET /portal/{orgID}/developer: the signed-in developer, while its portal is on (404 otherwise, as every portal route). */
export async function signedIn(developer: Developer): Promise<Developer> {
  await openPortal(developer.org_id);
  return developer;
}

/** DELETE /portal/{orgID}/session: the session ends at once (its token is refused from then on). */
export async function signOut(token: string): Promise<void> {
  await removeDeveloperSession(tokenHash(token));
}

// --- the organisation's users ------------------------------------------------------------------------

export const listDevelopers = (orgId: string, query: PageQuery & { state?: Developer['state'] }) => loadDeveloperPage(orgId, pageRequest(query), query.state);

const developerNotFound = (id: string) => () => new NotFound(`developer ${id} not found`);

/** PUT /api/portal/developers/{developerID}: approve (active) or disable a developer of the organisation (404 otherwise). */
export async function setDeveloper(orgId: string, id: string, state: 'active' | 'disabled'): Promise<Developer> {
  const developer = await loadDeveloper(id);
  if (developer?.org_id !== orgId) throw developerNotFound(id)();
  const at = new Date().toISOString();
  await setDeveloperState(id, state, at, developerNotFound(id));
  return shownDeveloper({ ...developer, state, updated_at: at });
}

/** POST /api/portal/invitations: an invitation for one e-mail, shown this once; only its hash is kept. */
export async function invite(orgId: string, email: string) {
  const { token, hash } = newToken('invitation');
  const expires = clock() + PORTAL_LIMITS.invitationSeconds;
  await putInvitation(hash, { org_id: orgId, email_lower: email.toLowerCase(), expires_at: expires });
  return { invitation: token, email_address: email, expires_at: new Date(expires * 1000).toISOString() };
}
