import { Conflict, NotFound } from '../errors';
import { pageCount, type PageRequest } from '../domain/paging';
import type { Hook } from '../schemas/hooks';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stampUpdate } from './db/audit-stamp';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { batchGet, isConditionFailure, loadListed, stripItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import { timeSortKey, type StorageKey } from './db/storage-key';
import { writeItems, type TxItem } from './db/transactions';
import { guardVersion } from './db/versioned-write';
import { settleWriteUnit } from './db/write-unit';
import { countChange, countUpWithin, loadCount, orgMustExist } from './organisations';

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
const PRIVATE = [SECRET_ATTR, PREVIOUS_ATTR, ROTATED_ATTR] as const;

/** A rotation's previous secret, sealed, and when it was replaced. */
export interface PreviousSecret {
  sealed: string;
  rotatedAtMs: number;
}

/** A hook as stored: what reads show, and its sealed secrets, which never leave the store. */
type HookRecord = Hook & { [SECRET_ATTR]?: string; [PREVIOUS_ATTR]?: string; [ROTATED_ATTR]?: number };

const hooks = defineEntity<HookRecord, [orgId: string, hookId: string]>({
  name: 'hook',
  key: hookKeys.hook,
  ids: (h) => [h.org_id, h.id],
  indexes: (h) => ({ GSI1PK: hookKeys.ofOrg(h.org_id), GSI1SK: timeSortKey(h.created_at, h.id) }),
  versioned: true,
  audited: true,
});

const shown = (r: HookRecord): Hook => stripItem<Hook>(r, PRIVATE);

/**
 * Stores a new hook with its sealed signing secret and moves the organisation's hook count in the
 * same transaction, only while the organisation has fewer than `max` (409).
 */
export async function insertHook(hook: Hook, sealedSecret: string, max: number): Promise<void> {
  const full = () => new Conflict(`the organisation has ${max} webhooks, the most it may have; delete one before creating another`);
  await writeItems([orgMustExist(hook.org_id), hooks.insert({ ...hook, [SECRET_ATTR]: sealedSecret }), countUpWithin(hook.org_id, 'HOOK', max, full)]);
}

/** The hook as reads show it (consistent read), or undefined. */
export async function loadHook(orgId: string, hookId: string): Promise<Hook | undefined> {
  const record = await hooks.get(orgId, hookId);
  return record ? shown(record) : undefined;
}

/** The hook as stored, sealed secrets included, for a change built from it. */
export const loadHookRecord = (orgId: string, hookId: string): Promise<HookRecord | undefined> => hooks.get(orgId, hookId);

/** A hook with its sealed signing secret (and the one a rotation replaced), for the delivery, which signs with them. */
export async function loadHookForDelivery(
  orgId: string,
  hookId: string,
): Promise<{ hook: Hook; sealedSecret: string | undefined; previous?: PreviousSecret } | undefined> {
  const r = await hooks.get(orgId, hookId);
  if (!r) return undefined;
  const prev = r[PREVIOUS_ATTR];
  const previous = typeof prev === 'string' && prev !== '' ? { sealed: prev, rotatedAtMs: Number(r[ROTATED_ATTR]) } : undefined;
  return { hook: shown(r), sealedSecret: typeof r[SECRET_ATTR] === 'string' ? r[SECRET_ATTR] : undefined, ...(previous ? { previous } : {}) };
}

/** What routing needs of a hook: that it exists, and its own cooldown. */
export type RoutedHook = Pick<Hook, 'id' | 'org_id' | 'event_timeout'>;

/** The hooks among `refs` that exist, keyed by `routedHookKey` (one BatchGetItem per 100, three attributes each). */
export async function loadRoutedHooks(refs: ReadonlyArray<{ orgId: string; hookId: string }>): Promise<Map<string, RoutedHook>> {
  const unique = new Map(refs.map((r) => [routedHookKey(r.orgId, r.hookId), hookKeys.hook(r.orgId, r.hookId)]));
  const items = await batchGet([...unique.values()], true, ['id', 'org_id', 'event_timeout']);
  return new Map(items.map((i) => [routedHookKey(String(i.org_id), String(i.id)), i as unknown as RoutedHook]));
}

export const routedHookKey = (orgId: string, hookId: string) => `${orgId}\n${hookId}`;

/** The ids among `hookIds` that name no hook of the organisation (one BatchGetItem per 100). */
export async function missingHooks(orgId: string, hookIds: readonly string[]): Promise<string[]> {
  if (hookIds.length === 0) return [];
  const found = await batchGet(
    hookIds.map((id) => hookKeys.hook(orgId, id)),
    true,
    ['id'],
  );
  const ids = new Set(found.map((i) => String(i.id)));
  return hookIds.filter((id) => !ids.has(id));
}

/**
 * Replaces the sealed signing secret of an existing hook (its version moves on) and keeps the one
 * it replaces, with the time, for the rotation window; 404 unknown.
 */
export async function saveSigningSecret(orgId: string, hookId: string, sealedSecret: string): Promise<number> {
  const now = new Date();
  const stamp = stampUpdate(now.getTime());
  // An UpdateItem cannot carry the request's unit of its write limit: it is spent first.
  await settleWriteUnit();
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: hookKeys.hook(orgId, hookId),
        UpdateExpression: `SET #p = if_not_exists(#s, :none), #r = :ms, #s = :s, updated_at = :now${stamp.set} ADD version :one`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#s': SECRET_ATTR, '#p': PREVIOUS_ATTR, '#r': ROTATED_ATTR, ...stamp.names },
        ExpressionAttributeValues: { ':s': sealedSecret, ':none': '', ':ms': now.getTime(), ':now': now.toISOString(), ':one': 1, ...stamp.values },
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
 * Writes `next` over the hook read as `previous` (guarded by its version, so a rotation in between
 * is read again rather than undone); the signing secrets stay as they were.
 */
export async function saveHook(next: Hook, previous: HookRecord): Promise<void> {
  const secrets = Object.fromEntries(PRIVATE.filter((a) => previous[a] !== undefined).map((a) => [a, previous[a]]));
  await writeItems([guardVersion(hooks.put(next, { extra: secrets }), previous.version)]);
}

/** Deletes a hook read at `version` (guarded by it) and moves the count, in one transaction. */
export async function removeHook(orgId: string, hookId: string, version: number): Promise<void> {
  await writeItems([guardVersion(hooks.remove(orgId, hookId), version), countChange(orgId, 'HOOK', -1)]);
}

export async function loadHookPage(orgId: string, req: PageRequest) {
  const q: ListQuery = { index: 'GSI1', partition: hookKeys.ofOrg(orgId), forward: true };
  const [page, total] = await Promise.all([listPage(q, req), loadCount(orgId, 'HOOK')]);
  return { hooks: page.items.map((i) => shown(hooks.fromItem(i))), pages: pageCount(total, req), next_cursor: page.nextCursor };
}

/** Every hook of an organisation as reads show it, each with its sealed signing secret (an export). */
export async function loadOrgHooks(orgId: string): Promise<Array<{ hook: Hook; sealed: string | undefined }>> {
  return (await loadListed(hookKeys.ofOrg(orgId))).map((i) => ({
    hook: shown(hooks.fromItem(i)),
    sealed: typeof i[SECRET_ATTR] === 'string' ? i[SECRET_ATTR] : undefined,
  }));
}

/** The write of a hook carried by an import, with its signing secret sealed by this installation. */
export const restoredHookItem = (hook: Hook, sealedSecret: string): TxItem => hooks.insert({ ...hook, version: 1, [SECRET_ATTR]: sealedSecret });
