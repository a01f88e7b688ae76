/**
 * The one versioned-write helper (shared/store/db/versioned-write.ts) on DynamoDB Local: what a
 * write that loses a race to another writer answers, with and without If-Match, and the bound on
 * how often a writer without If-Match reads again.
 */
import { PutCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IfMatch } from '../../shared/domain/if-match';
import { NotFound } from '../../shared/errors';
import { ddb, tableName } from '../../shared/store/db/client';
import { getItem } from '../../shared/store/db/items';
import { putOp, writeItems } from '../../shared/store/db/transactions';
import { guardVersion, MAX_ATTEMPTS, writeVersioned } from '../../shared/store/db/versioned-write';
import { useTestTable } from '../support/table';

beforeAll(async () => {
  await useTestTable();
});

const key = (id: string) => ({ PK: `THING#${id}`, SK: 'THING' });
const put = (id: string, fields: Record<string, unknown>) => ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key(id), ...fields } }));
const read = (id: string) => getItem(key(id), true) as Promise<{ version: number; name?: string } | undefined>;

/**
 * Writes `name` on the thing through the helper; `meddle(attempt)` runs between the helper's read
 * and its write, as another writer would, and `also` adds another object's guarded item.
 */
function rename(
  id: string,
  name: string,
  ifMatch: IfMatch | undefined,
  meddle: (attempt: number) => Promise<void>,
  also?: { id: string; version: () => Promise<number> },
) {
  let attempt = 0;
  return writeVersioned({
    what: `thing ${id}`,
    ifMatch,
    read: () => read(id),
    notFound: () => new NotFound(`thing ${id} not found`),
    write: async (current) => {
      attempt++;
      const other = also
        ? [guardVersion({ op: putOp({ ...key(also.id), version: (await also.version()) + 1 }) }, await also.version(), { subject: false })]
        : [];
      await meddle(attempt);
      await writeItems([guardVersion({ op: putOp({ ...key(id), name, version: current.version + 1 }) }, current.version), ...other]);
      return attempt;
    },
  });
}

describe('a write that lost a race to another writer', () => {
  it('without If-Match is rebuilt on the newer version: the last write wins', async () => {
    await put('lww', { name: 'v1', version: 1 });
    const attempts = await rename('lww', 'mine', undefined, async (n) => {
      if (n <= 2) await put('lww', { name: `theirs-${n}`, version: 1 + n });
    });
    expect(attempts).toBe(3);
    expect(await read('lww')).toMatchObject({ name: 'mine', version: 4 });
  });

  it(`without If-Match gives up after ${MAX_ATTEMPTS} lost races with a 409 that says to try again, having written nothing`, async () => {
    await put('storm', { name: 'v1', version: 1 });
    let theirs = 1;
    const lost = rename('storm', 'mine', undefined, async () => {
      theirs++;
      await put('storm', { name: `theirs-${theirs}`, version: theirs });
    });
    await expect(lost).rejects.toMatchObject({ status: 409, message: 'thing storm kept changing while it was being written; try again' });
    expect(theirs).toBe(1 + MAX_ATTEMPTS);
    expect((await read('storm'))?.name).toBe(`theirs-${theirs}`);
  });

  it('with If-Match (a version or *) is 412 at once, and nothing is written', async () => {
    for (const ifMatch of [[1], '*'] as const) {
      await put('im', { name: 'v1', version: 1 });
      let attempts = 0;
      const lost = rename('im', 'mine', ifMatch, async () => {
        attempts++;
        await put('im', { name: 'theirs', version: 2 });
      });
      await expect(lost).rejects.toMatchObject({ status: 412 });
      expect(attempts).toBe(1);
      expect(await read('im')).toMatchObject({ name: 'theirs', version: 2 });
    }
  });

  it('is 404 when the other writer deleted the object, with or without If-Match', async () => {
    for (const ifMatch of [undefined, [1]]) {
      await put('gone', { name: 'v1', version: 1 });
      const lost = rename('gone', 'mine', ifMatch, () =>
        ddb()
          .send(new DeleteCommand({ TableName: tableName(), Key: key('gone') }))
          .then(() => undefined),
      );
      await expect(lost).rejects.toMatchObject({ status: 404, message: 'thing gone not found' });
      expect(await read('gone')).toBeUndefined();
    }
  });

  it('on another object the change read (not the one If-Match names) is read again even with If-Match', async () => {
    await put('child', { name: 'v1', version: 1 });
    await put('base', { version: 1 });
    const attempts = await rename(
      'child',
      'mine',
      [1],
      async (n) => {
        if (n === 1) await put('base', { version: 2 });
      },
      { id: 'base', version: async () => (await read('base'))!.version },
    );
    expect(attempts).toBe(2);
    expect(await read('child')).toMatchObject({ name: 'mine', version: 2 });
    expect((await read('base'))?.version).toBe(3);
  });
});
