/**
 * Webhooks of the caller's organisation (dashboard routes). The organisation is part of each
 * hook's storage key, so another organisation's hook is simply not found (404).
 *
 * Each hook has a signing secret (contract §11), answered once when it is made or rotated. It must
 * sign every delivery, so it cannot be kept as a hash: it is sealed (AES-256-GCM) under a key
 * derived from the service key for this purpose alone, bound to the hook's organisation and id, so
 * the table alone never yields it and a sealed secret copied to another hook does not open.
 */
import { BadRequest, NotFound, Unprocessable } from '../errors';
import { handlerLimitProblems, hookIdsOf } from '../domain/event-handlers';
import { newDbId } from '../lib/hashing';
import { maskCredentials } from '../domain/credential-members';
import { keepMaskedHeaderValues } from '../domain/hook-headers';
import { keepMaskedTargetCredentials } from '../domain/hook-target';
import type { IfMatch } from '../domain/if-match';
import { pageRequest } from '../domain/paging';
import { seal, unseal } from '../domain/sealed';
import { newSigningSecret } from '../domain/webhook-signature';
import type { PageQuery } from '../schemas/common';
import type { Hook, HookInput } from '../schemas/hooks';
import { serviceKey } from '../secrets';
import { writeVersioned } from '../store/db/versioned-write';
import { orgHooksMax } from './org-limits';
import { insertHook, loadHook, loadHookPage, loadHookRecord, missingHooks, removeHook, saveHook, saveSigningSecret } from '../store/hooks';

const sealContext = (orgId: string, hookId: string) => `webhook signing secret\n${orgId}\n${hookId}`;

/** A signing secret sealed for the hook: `secret` when given (an import carrying one), else a new one. */
export async function sealedSecret(orgId: string, hookId: string, given?: string): Promise<{ secret: string; sealed: string }> {
  const secret = given ?? newSigningSecret();
  return { secret, sealed: seal(secret, await serviceKey('webhook signing secret'), sealContext(orgId, hookId)) };
}

/** A hook as reads show it: its credentials (every header value, those of its target URL) write-only, masked. */
const shown = (hook: Hook): Hook => maskCredentials('webhook', hook);

/** Creates a hook; answers it with its signing secret, which no later read shows. A masked header value has nothing to keep (400). */
export async function createHook(orgId: string, input: HookInput): Promise<{ hook: Hook; signingSecret: string }> {
  const id = newDbId();
  const headers = keepMaskedHeaderValues(input.header_map, {});
  const target = keepMaskedTargetCredentials(input.target_path, undefined);
  // Sealed for this hook's id before the hook is written.
  const { secret, sealed } = await sealedSecret(orgId, id);
  const now = new Date().toISOString();
  const hook: Hook = { ...input, target_path: target, header_map: headers, id, org_id: orgId, created_at: now, updated_at: now, version: 1 };
  await insertHook(hook, sealed, await orgHooksMax(orgId));
  return { hook: shown(hook), signingSecret: secret };
}

/** A new signing secret for the hook, answered once; deliveries from now on are signed with it. */
export async function rotateSigningSecret(orgId: string, hookId: string): Promise<{ version: number; signingSecret: string }> {
  const { secret, sealed } = await sealedSecret(orgId, hookId);
  return { version: await saveSigningSecret(orgId, hookId, sealed), signingSecret: secret };
}

/** The clear signing secret of a stored hook, for signing a delivery; undefined when it cannot be opened. */
export async function openSigningSecret(orgId: string, hookId: string, sealed: string | undefined): Promise<string | undefined> {
  if (!sealed) return undefined;
  return unseal(sealed, await serviceKey('webhook signing secret'), sealContext(orgId, hookId));
}

const hookNotFound = (hookId: string) => () => new NotFound(`webhook ${hookId} not found`);

export async function getHook(orgId: string, hookId: string): Promise<Hook> {
  const hook = await loadHook(orgId, hookId);
  if (!hook) throw hookNotFound(hookId)();
  return shown(hook);
}

/**
 * Full replace: omitted members take their defaults; id, org, creation time and signing secret
 * stay. A header value sent as the mask keeps the stored value of that name, a credential of the
 * target sent as the mask the stored one in its place (from the hook as read for this write); 404 unknown, 412 stale If-Match.
 */
export function replaceHook(orgId: string, hookId: string, input: HookInput, ifMatch: IfMatch | undefined): Promise<Hook> {
  return writeVersioned({
    what: `webhook ${hookId}`,
    ifMatch,
    read: () => loadHookRecord(orgId, hookId),
    notFound: hookNotFound(hookId),
    write: async (current) => {
      const headers = keepMaskedHeaderValues(input.header_map, current.header_map);
      const next: Hook = {
        ...input,
        target_path: keepMaskedTargetCredentials(input.target_path, current.target_path),
        header_map: headers,
        id: hookId,
        org_id: orgId,
        created_at: current.created_at,
        updated_at: new Date().toISOString(),
        version: current.version + 1,
      };
      await saveHook(next, current);
      return shown(next);
    },
  });
}

/** Deletes a hook and moves the organisation's count; 404 unknown, 412 stale If-Match. */
export function deleteHook(orgId: string, hookId: string, ifMatch: IfMatch | undefined): Promise<void> {
  return writeVersioned({
    what: `webhook ${hookId}`,
    ifMatch,
    read: () => loadHook(orgId, hookId),
    notFound: hookNotFound(hookId),
    write: (current) => removeHook(orgId, hookId, current.version),
  });
}

/** The organisation's hooks in creation order, paged, header values masked. */
export async function listHooks(orgId: string, query: PageQuery) {
  const page = await loadHookPage(orgId, pageRequest(query));
  return { ...page, hooks: page.hooks.map(shown) };
}

/**
 * An API definition's webhook event handlers must stay within the fan-out limits (400 naming
 * each, before anything is read) and name hooks of the API's organisation (contract §11): 422
 * naming each unknown id, checked when the definition is written. Nothing is read when the
 * definition names no hook.
 */
export async function assertHandlersNameHooks(orgId: string, classic: unknown): Promise<void> {
  const over = handlerLimitProblems(classic);
  if (over.length) throw new BadRequest(`event handlers: ${over.map((p) => p.message).join('; ')}`, over);
  const missing = await missingHooks(orgId, hookIdsOf(classic));
  if (missing.length) {
    throw new Unprocessable(
      `event handlers name unknown webhooks: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'event_handlers', message: `webhook ${id} does not exist in organisation ${orgId}` })),
    );
  }
}
