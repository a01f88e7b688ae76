/**
 * Dashboard users (admin writes, dashboard reads). A change to a user or its access key clears
 * this process's credential cache, so a deactivation or a revoked key is refused here at once
 * (and everywhere within CACHE_SECONDS).
 */
import { pageRequest } from '../domain/paging';
import type { PageQuery } from '../schemas/common';
import type { User, UserCreate, UserUpdate } from '../schemas/users';
import { createUser as storeNewUser, listUsers, replaceUser, rotateAccessKey, searchUsers } from '../store/users';
import { forgetAccessKeys } from './credentials';
import type { IfMatch } from '../domain/if-match';

/** Creates a user with its access key, answered this once; 422 unknown organisation, 409 e-mail taken. */
export function createUser(input: UserCreate): Promise<{ user: User; accessKey: string }> {
  return storeNewUser(input);
}

export function listOrgUsers(orgId: string, query: PageQuery) {
  return listUsers(orgId, pageRequest(query));
}

export function searchOrgUsers(orgId: string, query: PageQuery & { q: string }) {
  return searchUsers(orgId, query.q, pageRequest(query));
}

/** Replaces a user's editable fields; 404 unknown, 409 e-mail taken, 412 stale If-Match. */
export async function updateUser(id: string, input: UserUpdate, ifMatch: IfMatch | undefined): Promise<{ user: User; version: number }> {
  const out = await replaceUser(id, input, ifMatch);
  forgetAccessKeys();
  return out;
}

/** Revokes a user's access key and issues a new one, answered this once; 404 unknown user. */
export async function rotateUserAccessKey(id: string): Promise<{ user: User; accessKey: string; version: number }> {
  const out = await rotateAccessKey(id);
  forgetAccessKeys();
  return out;
}
