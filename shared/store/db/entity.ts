/**
 * One way to define what the table stores (the model is dynamodb-toolbox's and ElectroDB's
 * entities; docs/developing/layout.md "Why our own entity helper" says why not either). Each resource's store module
 * defines its entities, and so owns everything about its items: the key builder (the only place
 * its keys are built), the index keys, the `entity` attribute, the attributes that never leave the
 * store, and whether the item is versioned (then written only through versioned-write.ts).
 *
 * Every entity also declares the partition keys it writes, as a pattern derived from its key
 * builder (its partition key with `*` for each id): `definedEntities()` lists them, so a function's
 * table access can be limited to the partitions of the entities it touches (IAM
 * `dynamodb:LeadingKeys` takes these patterns).
 */
import type { AppError } from '../../errors';
import { auditStamp, DELETION_RECORD_SECONDS, deletionKeys, STAMP } from './audit-stamp';
import { tableName } from './client';
import { getItem, stripItem } from './items';
import type { StorageKey } from './storage-key';
import { TTL_ATTRIBUTE } from './table';
import type { TransactItem, TxItem } from './transactions';

type Item = Record<string, unknown>;

/** The overloaded index keys an item may carry (shared/store/db/table.ts). */
type IndexKeys = Partial<Record<'GSI1PK' | 'GSI1SK' | 'GSI2PK' | 'GSI2SK' | 'GSI3PK' | 'GSI3SK', string>>;

interface EntitySpec<T, Ids extends readonly unknown[]> {
  /** The `entity` attribute of its items (the item-size guard names it in a 413). */
  name: string;
  /** The item's primary key from its ids. */
  key: (...ids: Ids) => StorageKey;
  /** The ids of a value, for entities stored from one (toItem and the writes below). */
  ids?: (value: T) => Ids;
  /** The index keys of a value: the lists it appears in. */
  indexes?: (value: T) => IndexKeys;
  /** Stored attributes that reads never give back (hashes, sealed secrets, lookup copies). */
  privateAttrs?: readonly string[];
  /** A `version` that If-Match names: replaced and deleted only under guardVersion(). */
  versioned?: boolean;
  /**
   * A configuration object of the audit trail (contract §12): its deletes write a deletion record
   * naming who deleted it, in the same transaction (audit-stamp.ts).
   */
  audited?: boolean;
}

/** What the registry says of an entity. */
export interface EntityInfo {
  name: string;
  /** Its items' partition keys, `*` for each id (an IAM LeadingKeys pattern). */
  partition: string;
  versioned: boolean;
  audited: boolean;
}

/** Where a value is stored when its entity has no `ids`: the ids of its key. */
interface At<Ids> {
  at?: Ids;
}

export interface Entity<T, Ids extends readonly unknown[]> extends EntityInfo {
  key: (...ids: Ids) => StorageKey;
  /** The stored item of a value: the value (without storage attributes), its keys, `entity`, index keys, then `extra`. */
  toItem: (value: T, opts?: { extra?: Item } & At<Ids>) => Item;
  /** The value of a stored item: without keys, `entity`, index keys and private attributes. */
  fromItem: (item: Item) => T;
  /** The value stored under these ids (a consistent read), or undefined. */
  get: (...ids: Ids) => Promise<T | undefined>;
  /** The whole stored item, private attributes included (a consistent read), or undefined. */
  getItem: (...ids: Ids) => Promise<Item | undefined>;
  /** Write that creates the value; `taken` is the error when the key is (409). */
  insert: (value: T, opts?: { extra?: Item; taken?: () => AppError } & At<Ids>) => TxItem;
  /** Write that stores the value whatever is stored (a versioned one goes through guardVersion). */
  put: (value: T, opts?: { extra?: Item } & At<Ids>) => TxItem;
  /** Write that sets these attributes of an existing item. */
  set: (ids: Ids, fields: Item) => TxItem;
  /** Write that deletes the item (a versioned one goes through guardVersion). */
  remove: (...ids: Ids) => TxItem;
  /** Condition that the item exists; `missing` is the error otherwise. */
  mustExist: (missing: () => AppError, ...ids: Ids) => TxItem;
}

const registry: EntityInfo[] = [];

/** Every entity defined by the store modules loaded so far, with its partition pattern. */
export const definedEntities = (): readonly EntityInfo[] => registry;

/** Stands for an id when the key builder is asked for its partition pattern. */
const HOLE = '\u0000';

export function defineEntity<T, Ids extends readonly unknown[]>(spec: EntitySpec<T, Ids>): Entity<T, Ids> {
  const probe = spec.key(...(Array.from({ length: spec.key.length }, () => HOLE) as unknown as Ids));
  const info: EntityInfo = {
    name: spec.name,
    partition: probe.PK.split(HOLE).join('*'),
    versioned: spec.versioned ?? false,
    audited: spec.audited ?? false,
  };
  registry.push(info);
  const private_ = spec.privateAttrs ?? [];
  const keyOf = (value: T, at: Ids | undefined): StorageKey => {
    const ids = at ?? spec.ids?.(value);
    if (!ids) throw new Error(`entity ${spec.name}: a value without ids needs \`at\``);
    return spec.key(...ids);
  };
  // The value's own members come first and lose to the keys: a loose client body that names `PK`,
  // an index key, `entity` or an audit stamp cannot move the item, put it in another list or
  // name another author.
  const toItem = (value: T, opts: { extra?: Item } & At<Ids> = {}): Item => ({
    ...stripItem(value as Item),
    ...keyOf(value, opts.at),
    entity: spec.name,
    ...spec.indexes?.(value),
    ...opts.extra,
    ...auditStamp(),
  });
  const fromItem = (item: Item): T => stripItem<T>(item, private_);
  const put = (item: Item, condition?: string): TransactItem => ({ Put: { TableName: tableName(), Item: item, ConditionExpression: condition } });
  return {
    ...info,
    key: spec.key,
    toItem,
    fromItem,
    getItem: (...ids) => getItem(spec.key(...ids), true),
    get: async (...ids) => {
      const item = await getItem(spec.key(...ids), true);
      return item ? fromItem(item) : undefined;
    },
    insert: (value, opts = {}) => ({
      op: put(toItem(value, opts), 'attribute_not_exists(PK)'),
      ...(opts.taken ? { onConditionFail: opts.taken } : {}),
    }),
    put: (value, opts) => ({ op: put(toItem(value, opts)) }),
    set: (ids, plain) => {
      const fields = { ...plain, ...auditStamp() };
      const names = Object.keys(fields);
      return {
        op: {
          Update: {
            TableName: tableName(),
            Key: spec.key(...ids),
            UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
            ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:f${i}`, fields[n]])),
          },
        },
      };
    },
    remove: (...ids) => {
      const key = spec.key(...ids);
      const record = info.audited ? deletionRecord(key) : undefined;
      return { op: { Delete: { TableName: tableName(), Key: key } }, ...(record ? { alongside: [record] } : {}) };
    },
    mustExist: (missing, ...ids) => ({
      op: { ConditionCheck: { TableName: tableName(), Key: spec.key(...ids), ConditionExpression: 'attribute_exists(PK)' } },
      onConditionFail: missing,
    }),
  };
}

/**
 * Who deletes an audited item, written in the delete's own transaction (audit-stamp.ts): the
 * change feed's REMOVE carries only the old image, whose stamp names the previous writer.
 */
const deletions = defineEntity<Item, [deletedPk: string, deletedSk: string, at: string, requestId: string]>({ name: 'deletion', key: deletionKeys.record });

function deletionRecord(deleted: StorageKey): TransactItem | undefined {
  const stamp = auditStamp();
  if (!stamp[STAMP.at]) return undefined;
  const at = String(stamp[STAMP.at]);
  const expires = Math.floor(Date.now() / 1000) + DELETION_RECORD_SECONDS;
  // Built here rather than by toItem, which would stamp it again a millisecond later than its key says.
  const item = { ...deletions.key(deleted.PK, deleted.SK, at, String(stamp[STAMP.requestId])), entity: deletions.name, ...stamp, [TTL_ATTRIBUTE]: expires };
  return { Put: { TableName: tableName(), Item: item } };
}

export interface Marker<Ids extends readonly unknown[]> extends EntityInfo {
  key: (...ids: Ids) => StorageKey;
  /** Transaction item that claims the value for `holder` (the attributes naming its owner); `taken` when it is claimed (409). */
  claim: (ids: Ids, holder: Item, taken: () => AppError) => TxItem;
  /** Transaction item that gives the value up. */
  release: (...ids: Ids) => TxItem;
  /** Who holds the value (a consistent read), or undefined. */
  holder: (...ids: Ids) => Promise<Item | undefined>;
}

/**
 * A uniqueness marker: an item keyed by a value that must be unique (an e-mail in an organisation,
 * a custom id), claimed with `attribute_not_exists` in the same transaction as the object that
 * holds it, and holding attributes that name that object. Each has a name of its own: a function's
 * grant names the markers it claims (infra/constructs/leading-keys.ts), not every marker.
 */
export function defineMarker<Ids extends readonly unknown[]>(spec: { name: string; key: (...ids: Ids) => StorageKey }): Marker<Ids> {
  const entity = defineEntity<Item, Ids>({ name: spec.name, key: spec.key });
  return {
    name: entity.name,
    partition: entity.partition,
    versioned: false,
    audited: false,
    key: spec.key,
    claim: (ids, holder, taken) => entity.insert(holder, { at: ids, taken }),
    release: entity.remove,
    holder: entity.getItem,
  };
}
