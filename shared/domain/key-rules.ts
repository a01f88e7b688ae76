/**
 * Pure rules of gateway keys (contract §6 and §10): what a key must reference, which limits a
 * check spends, how a session is shown. The store does the reading and writing.
 */
import { BadRequest } from '../errors';
import type { AccessRights, KeySession } from '../schemas/keys';
import { keyHash } from './key-ids';
import { quotaRemaining, UNLIMITED, type LiveWindow } from './quota';

/** A key must grant something: an access entry or a policy (400 otherwise). */
export function requireGrant(session: KeySession): void {
  const rights = Object.keys(session.access_rights ?? {}).length;
  if (rights === 0 && policyIdsOf(session).length === 0) {
    throw new BadRequest('a key needs at least one access_rights entry or one apply_policies id', [
      { path: 'body.access_rights', message: 'at least one entry, or apply_policies' },
    ]);
  }
}

/** Policy ids a session names: apply_policies plus the deprecated single apply_policy_id. */
export function policyIdsOf(session: Pick<KeySession, 'apply_policies' | 'apply_policy_id'>): string[] {
  const ids = [...(session.apply_policies ?? [])];
  if (session.apply_policy_id) ids.push(session.apply_policy_id);
  return [...new Set(ids)];
}

export function apiIdsOf(rights: AccessRights | null | undefined): string[] {
  return Object.keys(rights ?? {});
}

/**
 * The clear basic-auth password is split off before storage (it is kept only as a hash). A
 * replacement that names the same user without a password keeps the stored hash, so a session
 * read and sent back does not lose its password.
 */
export function splitPassword(session: KeySession): { session: KeySession; password?: string; username?: string } {
  const auth = session.basic_auth_data;
  if (!auth) return { session };
  const { password, ...rest } = auth;
  const username = typeof rest.user === 'string' && rest.user !== '' ? rest.user : undefined;
  return { session: { ...session, basic_auth_data: rest }, ...(password ? { password } : {}), ...(username ? { username } : {}) };
}

export interface KeyLookup {
  hashed?: boolean | undefined;
  auto_guess?: boolean | undefined;
  username?: boolean | undefined;
}

/**
 * Hashes to try, in order, for a key id from a path (contract §6): the hash itself when
 * `hashed`, the key then the hash with `auto_guess`, otherwise the key. Usernames are resolved
 * by the store (they need a lookup).
 */
export function candidateHashes(keyId: string, q: KeyLookup): string[] {
  if (q.hashed) return [keyId];
  if (q.auto_guess) return [keyHash(keyId), keyId];
  return [keyHash(keyId)];
}

/** The limits a session puts on requests to one API (its key-wide ones, or a per-API policy's). */
export interface SessionLimits {
  /** '' for the key-wide quota and rate; the API id under per-API limits. */
  scope: string;
  quota_max: number;
  quota_renewal_rate: number;
  rate: number | undefined;
  per: number | undefined;
}

/**
 * Limits a check on `apiId` spends: the access entry's own `limit` when a per-API policy put
 * one there, else the session's key-wide limits.
 */
export function limitsFor(session: KeySession, apiId: string): SessionLimits {
  const limit = session.access_rights?.[apiId]?.limit;
  const perApi = limit && (limit.quota_max !== undefined || limit.rate !== undefined);
  const src = perApi ? limit : session;
  return {
    scope: perApi ? apiId : '',
    quota_max: src.quota_max ?? UNLIMITED,
    quota_renewal_rate: src.quota_renewal_rate ?? 0,
    rate: src.rate,
    per: src.per,
  };
}

/** The session as reads show it: live quota figures, never a password or its hash. */
export function shownSession<S extends KeySession>(session: S, live: LiveWindow | undefined, quotaMax: number | undefined, now: number): S {
  const out: S = { ...session };
  if (out.basic_auth_data) {
    const { password: _p, ...auth } = out.basic_auth_data;
    out.basic_auth_data = auth;
  }
  if (live) {
    out.quota_remaining = quotaRemaining({ quota_max: quotaMax ?? UNLIMITED, used: live.used, renews: live.renews }, now);
    out.quota_renews = live.renews;
  }
  return out;
}

export interface QuotaScope {
  scope: string;
  renewalRate: number | undefined;
}

/** Live quotas an effective session has: the key-wide one, plus one per API with its own limit. */
export function quotaScopes(session: KeySession): QuotaScope[] {
  const scopes: QuotaScope[] = [{ scope: '', renewalRate: session.quota_renewal_rate }];
  for (const apiId of apiIdsOf(session.access_rights)) {
    const l = limitsFor(session, apiId);
    if (l.scope) scopes.push({ scope: l.scope, renewalRate: l.quota_renewal_rate });
  }
  return scopes;
}
