/**
 * The developer portal's rules, pure: tokens, windows, a plan's key, who may sign up.
 */
import { randomBytes } from 'node:crypto';
import { BadRequest, NotFound } from '../errors';
import { PORTAL_LIMITS } from '../limits';
import { sha256Hex } from '../lib/hashing';
import type { CatalogueEntry, Developer, KeyRequest, Plan, PortalSettings } from '../schemas/portal';

/** A new bearer token: a developer session's (`dps_`) or an invitation's (`dpi_`); only its hash is stored. */
export function newToken(kind: 'session' | 'invitation'): { token: string; hash: string } {
  const token = `${kind === 'session' ? 'dps' : 'dpi'}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: sha256Hex(token) };
}

export const tokenHash = (token: string): string => sha256Hex(token);

/** The fixed sign-in window `nowSeconds` falls in (its start and end, epoch seconds). */
export function signInWindow(nowSeconds: number): { start: number; end: number } {
  const size = PORTAL_LIMITS.signInWindowSeconds;
  const start = nowSeconds - (nowSeconds % size);
  return { start, end: start + size };
}

/** The state a new developer starts in under the portal's sign-up mode; an invitation is required by that mode only. */
export function signUpState(settings: PortalSettings, invited: boolean): Developer['state'] {
  if (settings.sign_up === 'invitation' && !invited) {
    throw new BadRequest('this portal takes sign-ups by invitation only', [{ path: 'body.invitation', message: 'required by this portal' }]);
  }
  return settings.sign_up === 'approval' && !invited ? 'pending' : 'active';
}

/** The plan a request names, in the API's catalogue entry; 404 as for an API that is not published. */
export function planOf(entry: CatalogueEntry | undefined, apiId: string, planId: string): Plan {
  const plan = entry?.plans.find((p) => p.id === planId);
  if (!plan) throw new NotFound(`no plan ${planId} of API ${apiId} in this portal`);
  return plan;
}

/**
 * The key a plan issues: the plan's policy applied (its rights, quota and rate), named after the
 * developer, and carrying where it came from, so a user who lists the organisation's keys can tell.
 */
export function planKeyInput(developer: Pick<Developer, 'id' | 'email_address'>, request: Pick<KeyRequest, 'id' | 'api_id' | 'plan_id'>, plan: Plan) {
  return {
    apply_policies: [plan.policy_id],
    alias: `${developer.email_address} (${request.plan_id})`,
    meta_data: { portal: { developer_id: developer.id, request_id: request.id, api_id: request.api_id, plan_id: request.plan_id } },
  };
}
