import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/store/db/client';
import { getItem } from '../../shared/store/db/items';
import { deleteIfMatch as deleteVersioned, guardVersion, writeVersioned } from '../../shared/store/db/versioned-write';
import { deleteOp, putOp, transactWrite, writeItems } from '../../shared/store/db/transactions';
import type { IfMatch } from '../../shared/domain/if-match';
import { countChange, loadCount } from '../../shared/store/organisations';
import { listPage } from '../../shared/store/db/paging';
import { pageRequest } from '../../shared/domain/paging';
import { Conflict, NotFound } from '../../shared/errors';
import { useTestTable } from '../support/table';

beforeAll(async () => {
  await useTestTable();
});

const key = (id: string) => ({ PK: `THING#${id}`, SK: 'THING' });
const notFound = () => new NotFound('thing not found');
/** The delete of a thing, as an entity's `remove` answers it. */
const removal = (k: { PK: string; SK: string }) => ({ op: deleteOp(k) });

/** A whole-item replace through the one versioned-write helper; answers the new version. */
const replaceVersioned = (k: { PK: string; SK: string }, item: Record<string, unknown>, ifMatch: IfMatch | undefined, nf: () => NotFound) =>
  writeVersioned({
    what: 'thing',
    ifMatch,
    read: () => getItem(k, true) as Promise<{ version: number } | undefined>,
    notFound: nf,
    write: async (current) => {
      await writeItems([guardVersion({ op: putOp({ ...item, ...k, version: current.version + 1 }) }, current.version)]);
      return current.version + 1;
    },
  });

describe('optimistic locking', () => {
  it('412 on a stale If-Match, 404 when absent, version moves by one', async () => {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key('a'), name: 'v1', version: 1 } }));
    expect(await replaceVersioned(key('a'), { name: 'v2' }, [1], notFound)).toBe(2);
    await expect(replaceVersioned(key('a'), { name: 'stale' }, [1], notFound)).rejects.toMatchObject({ status: 412 });
    expect((await getItem(key('a')))?.name).toBe('v2');
    expect(await replaceVersioned(key('a'), { name: 'v3' }, undefined, notFound)).toBe(3);
    await expect(replaceVersioned(key('missing'), {}, [1], notFound)).rejects.toMatchObject({ status: 404 });
    await expect(deleteVersioned(removal(key('a')), [2], notFound)).rejects.toMatchObject({ status: 412 });
    await deleteVersioned(removal(key('a')), [3], notFound);
    expect(await getItem(key('a'))).toBeUndefined();
  });

  it('If-Match lists, * and weak-only lists (contract §3): any listed version, any version, none', async () => {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key('l'), name: 'v1', version: 1 } }));
    expect(await replaceVersioned(key('l'), { name: 'v2' }, [7, 1], notFound)).toBe(2);
    await expect(replaceVersioned(key('l'), { name: 'no' }, [1, 3], notFound)).rejects.toMatchObject({ status: 412 });
    expect(await replaceVersioned(key('l'), { name: 'v3' }, '*', notFound)).toBe(3);
    await expect(replaceVersioned(key('l'), { name: 'weak' }, [], notFound)).rejects.toMatchObject({ status: 412 });
    await expect(deleteVersioned(removal(key('l')), [], notFound)).rejects.toMatchObject({ status: 412 });
    await expect(deleteVersioned(removal(key('l')), [1, 2], notFound)).rejects.toMatchObject({ status: 412 });
    await deleteVersioned(removal(key('l')), [2, 3], notFound);
    await expect(deleteVersioned(removal(key('l')), '*', notFound)).rejects.toMatchObject({ status: 404 });
    expect(await getItem(key('l'))).toBeUndefined();
  });

  it('of 10 concurrent writers with the same version exactly one wins', async () => {
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key('race'), version: 1 } }));
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => replaceVersioned(key('race'), { writer: i }, [1], notFound)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && (r.reason as { status: number }).status === 412)).toHaveLength(9);
    expect((await getItem(key('race'), true))?.version).toBe(2);
  });
});

describe('uniqueness markers and counters in one transaction', () => {
  it('concurrent creates of one unique value: exactly one succeeds; the counter stays exact', async () => {
    const create = (id: string, unique: string) =>
      transactWrite([
        {
          op: { Put: { TableName: tableName(), Item: { PK: `UNIQ#${unique}`, SK: 'U' }, ConditionExpression: 'attribute_not_exists(PK)' } },
          onConditionFail: () => new Conflict(`${unique} taken`),
        },
        { op: { Put: { TableName: tableName(), Item: { ...key(id), GSI1PK: 'ORG#u#THINGS', GSI1SK: id } } } },
        countChange('u', 'HOOK', 1),
      ]);
    const same = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => create(`same-${i}`, 'one-value')));
    expect(same.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(same.filter((r) => r.status === 'rejected' && (r.reason as { status: number }).status === 409)).toHaveLength(9);
    // Different unique values contend only on the counter: all succeed and it counts each once.
    const distinct = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => create(`d-${i}`, `v-${i}`)));
    expect(distinct.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await loadCount('u', 'HOOK')).toBe(21);

    const page = await listPage({ index: 'GSI1', partition: 'ORG#u#THINGS', forward: true }, pageRequest({ p: 3 }));
    expect(page.items).toHaveLength(1);
    const all = await listPage({ index: 'GSI1', partition: 'ORG#u#THINGS', forward: true }, pageRequest({ p: -1 }));
    expect(all.items).toHaveLength(21);
    // A cursor of one list cannot open another.
    const first = await listPage({ index: 'GSI1', partition: 'ORG#u#THINGS', forward: true }, pageRequest({}));
    await expect(listPage({ index: 'GSI1', partition: 'ORG#other#THINGS', forward: true }, pageRequest({ cursor: first.nextCursor }))).rejects.toMatchObject({
      status: 400,
    });
  });
});
