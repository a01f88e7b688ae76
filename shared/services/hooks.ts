/**
 * Webhooks of the caller's organisation (dashboard routes). The organisation is part of each
 * hook's storage key, so another organisation's hook is simply not found (404).
 */
import { NotFound } from '../errors';
import { pageRequest } from '../domain/paging';
import type { PageQuery } from '../schemas/common';
import type { Hook, HookInput } from '../schemas/hooks';
import * as store from '../store/hooks';

export const createHook = (orgId: string, input: HookInput): Promise<Hook> => store.createHook(orgId, input);

export async function getHook(orgId: string, hookId: string): Promise<Hook> {
  const hook = await store.getHook(orgId, hookId);
  if (!hook) throw new NotFound(`webhook ${hookId} not found`);
  return hook;
}

/** Full replace: omitted members are emptied; 404 unknown, 412 stale If-Match. */
export const replaceHook = (orgId: string, hookId: string, input: HookInput, ifMatch: number | undefined): Promise<Hook> =>
  store.replaceHook(orgId, hookId, input, ifMatch);

export const deleteHook = (orgId: string, hookId: string, ifMatch: number | undefined): Promise<void> => store.deleteHook(orgId, hookId, ifMatch);

/** The organisation's hooks in creation order, paged. */
export const listHooks = (orgId: string, query: PageQuery) => store.listHooks(orgId, pageRequest(query));
