import { NotFound, PreconditionFailed } from '../errors';
import { newDbId } from '../domain/hashing';
import { pageCount, type PageRequest } from '../domain/paging';
import type { Hook, HookInput } from '../schemas/hooks';
import { getItem, stripItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { deleteOp, putOp, transactWrite } from './db/transactions';
import { replaceVersioned } from './db/versioning';
import { countChange, readCount } from './organisations';

/**
 * Webhook keys. The organisation is part of the item key, so another organisation's hook id
 * simply names no item: the 404 of contract §2 needs no extra check and no write can cross over.
 */
export const hookKeys = {
  hook: (orgId: string, hookId: string): StorageKey => ({ PK: `ORG#${orgId}#HOOK#${hookId}`, SK: 'HOOK' }),
  /** GSI1: an organisation's hooks in creation order. */
  ofOrg: (orgId: string) => `ORG#${orgId}#HOOKS`,
};

const notFound = (hookId: string) => () => new NotFound(`webhook ${hookId} not found`);

function itemOf(hook: Hook) {
  return {
    ...hookKeys.hook(hook.org_id, hook.id),
    entity: 'hook',
    GSI1PK: hookKeys.ofOrg(hook.org_id),
    GSI1SK: timeSortKey(hook.created_at, hook.id),
    ...hook,
  };
}

/** Creates a hook and moves the organisation's hook count in the same transaction. */
export async function createHook(orgId: string, input: HookInput): Promise<Hook> {
  const now = new Date().toISOString();
  const hook: Hook = { ...input, id: newDbId(), org_id: orgId, created_at: now, updated_at: now, version: 1 };
  await transactWrite([{ op: putOp(itemOf(hook), 'attribute_not_exists(PK)') }, countChange(orgId, 'HOOK', 1)]);
  return hook;
}

export async function getHook(orgId: string, hookId: string): Promise<Hook | undefined> {
  const item = await getItem(hookKeys.hook(orgId, hookId), true);
  return item ? stripItem<Hook>(item) : undefined;
}

/** Full replace: omitted members take their defaults; id, org and creation time stay. */
export async function replaceHook(orgId: string, hookId: string, input: HookInput, ifMatch: number | undefined): Promise<Hook> {
  const current = await getHook(orgId, hookId);
  if (!current) throw notFound(hookId)();
  const next: Hook = { ...input, id: hookId, org_id: orgId, created_at: current.created_at, updated_at: new Date().toISOString(), version: 0 };
  const version = await replaceVersioned(hookKeys.hook(orgId, hookId), itemOf(next), ifMatch, notFound(hookId));
  return { ...next, version };
}

/**
 * Deletes a hook and moves the count in one transaction. The delete is guarded by the version
 * just read; without If-Match a concurrent replace only causes a re-read, never a 412.
 */
export async function deleteHook(orgId: string, hookId: string, ifMatch: number | undefined): Promise<void> {
  for (;;) {
    const current = await getHook(orgId, hookId);
    if (!current) throw notFound(hookId)();
    if (ifMatch !== undefined && ifMatch !== current.version) throw new PreconditionFailed();
    try {
      await transactWrite([
        { op: deleteOp(hookKeys.hook(orgId, hookId), 'version = :v', { ':v': current.version }), onConditionFail: () => new PreconditionFailed() },
        countChange(orgId, 'HOOK', -1),
      ]);
      return;
    } catch (e) {
      if (!(e instanceof PreconditionFailed) || ifMatch !== undefined) throw e;
    }
  }
}

export async function listHooks(orgId: string, req: PageRequest) {
  const q: ListQuery = { index: 'GSI1', partition: hookKeys.ofOrg(orgId), forward: true };
  const [page, total] = await Promise.all([listPage(q, req), readCount(orgId, 'HOOK')]);
  return { hooks: page.items.map((i) => stripItem<Hook>(i)), pages: pageCount(total, req), next_cursor: page.nextCursor };
}
