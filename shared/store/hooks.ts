import { Conflict, NotFound, PreconditionFailed } from '../errors';
import { WEBHOOK_LIMITS } from '../limits';
import { newDbId } from '../domain/hashing';
import { pageCount, type PageRequest } from '../domain/paging';
import type { Hook, HookInput } from '../schemas/hooks';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './db/client';
import { batchGet, getItem, isConditionFailure, stripItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { deleteOp, putOp, transactWrite } from './db/transactions';
import { countChange, countUpWithin, readCount } from './organisations';
import { ifMatchAllows, type IfMatch } from '../domain/if-match';

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

/** The signing secret, sealed by the service (never shown by a read: contract §11). */
const SECRET_ATTR = 'signing_secret_sealed';
/** The secret a rotation replaced and when (ms): deliveries carry its signature too for a while. */
const PREVIOUS_ATTR = 'previous_signing_secret_sealed';
const ROTATED_ATTR = 'signing_secret_rotated_ms';
const PRIVATE = [SECRET_ATTR, PREVIOUS_ATTR, ROTATED_ATTR];

/** A rotation's previous secret, sealed, and when it was replaced. */
export interface PreviousSecret {
  sealed: string;
  rotatedAtMs: number;
}

function itemOf(hook: Hook, sealedSecret: string) {
  return {
    ...hookKeys.hook(hook.org_id, hook.id),
    entity: 'hook',
    GSI1PK: hookKeys.ofOrg(hook.org_id),
    GSI1SK: timeSortKey(hook.created_at, hook.id),
    ...hook,
    [SECRET_ATTR]: sealedSecret,
  };
}

/** A new hook's id: the service seals its signing secret for it before the hook is written. */
export const newHookId = (): string => newDbId();

/**
 * Creates a hook with its sealed signing secret and moves the organisation's hook count in the
 * same transaction, only while the organisation has fewer than `WEBHOOK_LIMITS.hooksPerOrg` (409).
 */
export async function createHook(orgId: string, hookId: string, input: HookInput, sealedSecret: string): Promise<Hook> {
  const now = new Date().toISOString();
  const hook: Hook = { ...input, id: hookId, org_id: orgId, created_at: now, updated_at: now, version: 1 };
  const max = WEBHOOK_LIMITS.hooksPerOrg;
  const full = () => new Conflict(`the organisation has ${max} webhooks, the most it may have; delete one before creating another`);
  await transactWrite([{ op: putOp(itemOf(hook, sealedSecret), 'attribute_not_exists(PK)') }, countUpWithin(orgId, 'HOOK', max, full)]);
  return hook;
}

export async function getHook(orgId: string, hookId: string): Promise<Hook | undefined> {
  const item = await getItem(hookKeys.hook(orgId, hookId), true);
  return item ? stripItem<Hook>(item, PRIVATE) : undefined;
}

/** A hook with its sealed signing secret (and the one a rotation replaced), for the delivery, which signs with them. */
export async function getHookForDelivery(
  orgId: string,
  hookId: string,
): Promise<{ hook: Hook; sealedSecret: string | undefined; previous?: PreviousSecret } | undefined> {
  const item = await getItem(hookKeys.hook(orgId, hookId), true);
  if (!item) return undefined;
  const previous = typeof item[PREVIOUS_ATTR] === 'string' && item[PREVIOUS_ATTR] !== '' ? { sealed: item[PREVIOUS_ATTR], rotatedAtMs: Number(item[ROTATED_ATTR]) } : undefined;
  return { hook: stripItem<Hook>(item, PRIVATE), sealedSecret: typeof item[SECRET_ATTR] === 'string' ? item[SECRET_ATTR] : undefined, ...(previous ? { previous } : {}) };
}

/** What routing needs of a hook: that it exists, and its own cooldown. */
export type RoutedHook = Pick<Hook, 'id' | 'org_id' | 'event_timeout'>;

/** The hooks among `refs` that exist, keyed by `routedHookKey` (one BatchGetItem per 100, three attributes each). */
export async function getRoutedHooks(refs: ReadonlyArray<{ orgId: string; hookId: string }>): Promise<Map<string, RoutedHook>> {
  const unique = new Map(refs.map((r) => [routedHookKey(r.orgId, r.hookId), hookKeys.hook(r.orgId, r.hookId)]));
  const items = await batchGet([...unique.values()], true, ['id', 'org_id', 'event_timeout']);
  return new Map(items.map((i) => [routedHookKey(String(i.org_id), String(i.id)), i as unknown as RoutedHook]));
}

export const routedHookKey = (orgId: string, hookId: string) => `${orgId}\n${hookId}`;

/** The ids among `hookIds` that name no hook of the organisation (one BatchGetItem per 100). */
export async function missingHooks(orgId: string, hookIds: readonly string[]): Promise<string[]> {
  if (hookIds.length === 0) return [];
  const found = await batchGet(hookIds.map((id) => hookKeys.hook(orgId, id)), true, ['id']);
  const ids = new Set(found.map((i) => String(i.id)));
  return hookIds.filter((id) => !ids.has(id));
}

/**
 * Replaces the sealed signing secret of an existing hook (its version moves on) and keeps the one
 * it replaces, with the time, for the rotation window; 404 unknown.
 */
export async function setSigningSecret(orgId: string, hookId: string, sealedSecret: string): Promise<number> {
  const now = new Date();
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: hookKeys.hook(orgId, hookId),
        UpdateExpression: 'SET #p = if_not_exists(#s, :none), #r = :ms, #s = :s, updated_at = :now ADD version :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#s': SECRET_ATTR, '#p': PREVIOUS_ATTR, '#r': ROTATED_ATTR },
        ExpressionAttributeValues: { ':s': sealedSecret, ':none': '', ':ms': now.getTime(), ':now': now.toISOString(), ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.version);
  } catch (e) {
    if (isConditionFailure(e)) throw notFound(hookId)();
    throw e;
  }
}

/**
 * Full replace: omitted members take their defaults; id, org, creation time and signing secret
 * stay. The Put is guarded by the version the secret was read with, so a rotation in between is
 * read again rather than undone; without If-Match the last write still wins. `input` is built
 * from the hook as read in each attempt (the service keeps masked header values from it).
 */
export async function replaceHook(orgId: string, hookId: string, input: (current: Hook) => HookInput, ifMatch: IfMatch | undefined): Promise<Hook> {
  for (;;) {
    const current = await getHookForDelivery(orgId, hookId);
    if (!current) throw notFound(hookId)();
    if (!ifMatchAllows(ifMatch, current.hook.version)) throw new PreconditionFailed();
    const version = current.hook.version + 1;
    const next: Hook = { ...input(current.hook), id: hookId, org_id: orgId, created_at: current.hook.created_at, updated_at: new Date().toISOString(), version };
    const item: Record<string, unknown> = itemOf(next, current.sealedSecret ?? '');
    if (!current.sealedSecret) delete item[SECRET_ATTR];
    if (current.previous) Object.assign(item, { [PREVIOUS_ATTR]: current.previous.sealed, [ROTATED_ATTR]: current.previous.rotatedAtMs });
    try {
      await ddb().send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_exists(PK) AND version = :v',
          ExpressionAttributeValues: { ':v': current.hook.version },
        }),
      );
      return next;
    } catch (e) {
      if (!isConditionFailure(e)) throw e;
      if (ifMatch !== undefined) throw new PreconditionFailed();
    }
  }
}

/**
 * Deletes a hook and moves the count in one transaction. The delete is guarded by the version
 * just read; without If-Match a concurrent replace only causes a re-read, never a 412.
 */
export async function deleteHook(orgId: string, hookId: string, ifMatch: IfMatch | undefined): Promise<void> {
  for (;;) {
    const current = await getHook(orgId, hookId);
    if (!current) throw notFound(hookId)();
    if (!ifMatchAllows(ifMatch, current.version)) throw new PreconditionFailed();
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
  return { hooks: page.items.map((i) => stripItem<Hook>(i, PRIVATE)), pages: pageCount(total, req), next_cursor: page.nextCursor };
}
