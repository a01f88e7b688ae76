/**
 * The read budget of one list request (shared/store/db/paging.ts, docs/reference/limits.md), on lists
 * without a count: a filter that matches little would otherwise read the whole partition for one
 * page. Items of 300 KB, so the budget is met within a few Queries; the read is measured as
 * DynamoDB reports it.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageRequest, pagesSeen } from '../../shared/domain/paging';
import { LIMITS } from '../../shared/limits';
import { ddb, tableName } from '../../shared/store/db/client';
import { listPage, type ListQuery } from '../../shared/store/db/paging';
import { commandRecorder } from '../support/sent-commands';
import { useTestTable } from '../support/table';

const N = 30;
const PARTITION = 'ORG#budget#LOG';

beforeAll(async () => {
  await useTestTable();
  const body = 'x'.repeat(300_000);
  for (let i = 0; i < N; i++) {
    const sk = String(i).padStart(3, '0');
    // Only every tenth item matches the filter below.
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { PK: `LOG#${sk}`, SK: 'LOG', GSI1PK: PARTITION, GSI1SK: sk, kind: i % 10 === 9 ? 'rare' : 'common', body },
      }),
    );
  }
}, 60_000);
const recorded = commandRecorder();

const rare: ListQuery = {
  index: 'GSI1',
  partition: PARTITION,
  forward: true,
  filter: { expression: '#k = :k', names: { '#k': 'kind' }, values: { ':k': 'rare' } },
};
const readBytes = (reads: { units: number }[]) => reads.reduce((n, r) => n + r.units * 8192, 0);

describe('a filtered list reads at most its budget per request', () => {
  it('ends a page early with a cursor when the budget runs out; the cursors find every match once; pages is the pages seen', async () => {
    const found: string[] = [];
    const pages: Array<{ pages: number; found: number; more: boolean }> = [];
    let cursor: string | undefined;
    do {
      const req = pageRequest({ page_size: 5, ...(cursor ? { cursor } : {}) });
      const { result: page, reads } = await recorded(() => listPage(rare, req));
      expect(readBytes(reads)).toBeLessThanOrEqual(LIMITS.listReadBytes);
      found.push(...page.items.map((i) => String(i.GSI1SK)));
      cursor = page.nextCursor;
      pages.push({ pages: pagesSeen(page.extent, req), found: found.length, more: cursor !== undefined });
    } while (cursor);
    expect(found).toEqual(['009', '019', '029']);
    // 9 MB of items: no request read them all, so the walk took several.
    expect(pages.length).toBeGreaterThan(2);
    // The matches found so far in pages of 5, and one more while a cursor follows; the last is exact.
    expect(pages.map((p) => p.pages)).toEqual(pages.map((p) => Math.ceil(p.found / 5) + (p.more ? 1 : 0)));
    expect(pages.at(-1)).toEqual({ pages: 1, found: 3, more: false });
  });

  it('a page number past the budget is 400, and so is every item at once', async () => {
    await expect(listPage(rare, pageRequest({ p: 3, page_size: 1 }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/page 3 lies deeper/),
    });
    const { index, partition, forward } = rare;
    await expect(listPage({ index, partition, forward }, pageRequest({ p: -1 }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/larger than one request may read/),
    });
  });
});
