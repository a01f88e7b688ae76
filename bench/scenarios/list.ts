import { BatchWriteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { recordFromClassic } from '../../shared/domain/api-builders';
import { insertApiItems } from '../../shared/store/apis';
import { apiKeys } from '../../shared/store/apis';
import { orgKeys } from '../../shared/store/organisations';
import type { Ctx } from '../lib/context';
import { call, timed } from '../lib/http';
import { interleaved, percentile, round, type Row } from '../lib/stats';

/**
 * Seeds `count` APIs with exactly the items the create route writes (built by the store's own
 * insertApiItems), in batches rather than one transaction each: seeding is not what is measured.
 */
async function seed(ctx: Ctx, orgId: string, count: number): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const puts: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(start + i * 1000).toISOString();
    const api = recordFromClassic(
      { api_id: `${orgId}-api-${i}`, name: `API ${String(i).padStart(5, '0')}`, org_id: orgId, proxy: { listen_path: `/a${i}/` } },
      at,
    );
    for (const item of insertApiItems(api)) if (item.op.Put) puts.push(item.op.Put.Item as Record<string, unknown>);
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < puts.length; i += 25) batches.push(puts.slice(i, i + 25));
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let request: any = { [ctx.stage.table]: batch.map((Item) => ({ PutRequest: { Item } })) };
      while (request && Object.keys(request).length) {
        const out = await ctx.raw.send(new BatchWriteCommand({ RequestItems: request }));
        request = out.UnprocessedItems;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await ctx.raw.send(new PutCommand({ TableName: ctx.stage.table, Item: { ...orgKeys.counter(orgId, 'API'), entity: 'counter', n: count } }));
}

/** A cursor `depth` entries into the default listing, walked through the route. */
async function deepCursor(ctx: Ctx, dash: Record<string, string>, depth: number): Promise<string> {
  let cursor: string | undefined;
  let seen = 0;
  while (seen < depth) {
    const size = Math.min(100, depth - seen);
    const r = await call(ctx.stage.url, 'GET', `/api/apis?page_size=${size}${cursor ? `&cursor=${cursor}` : ''}`, dash);
    if (r.status !== 200 || !r.body.next_cursor) throw new Error(`walk ${r.status}`);
    cursor = r.body.next_cursor;
    seen += size;
  }
  return cursor!;
}

/** GET /api/apis first page and a deep cursor page: 10,000 APIs vs 100 in the organisation. */
export async function list(ctx: Ctx, samples = 300): Promise<Row[]> {
  const small = await ctx.tenant('bench-list-100');
  const large = await ctx.tenant('bench-list-10k');
  await seed(ctx, small.orgId, 100);
  await seed(ctx, large.orgId, 10_000);
  const page = (dash: Record<string, string>, path: string) => async () => {
    const r = await call(ctx.stage.url, 'GET', path, dash);
    if (r.status !== 200 || r.body.apis.length !== 10) throw new Error(`list ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    return r.ms;
  };
  const rows: Row[] = [];
  const first = await interleaved(samples, page(large.dash, '/api/apis?p=1'), page(small.dash, '/api/apis?p=1'));
  const firstRatio = percentile(first.a, 50) / percentile(first.b, 50);
  rows.push({
    scenario: 'list at scale',
    measured: 'GET /api/apis?p=1, 10,000 / 100 APIs, p50',
    value: round(firstRatio),
    target: '<= 1.2',
    pass: firstRatio <= 1.2,
    detail: { p50_10k_ms: round(percentile(first.a, 50)), p50_100_ms: round(percentile(first.b, 50)), samples },
  });
  const deepLarge = await deepCursor(ctx, large.dash, 9_900);
  const deepSmall = await deepCursor(ctx, small.dash, 80);
  const deep = await interleaved(samples, page(large.dash, `/api/apis?cursor=${deepLarge}`), page(small.dash, `/api/apis?cursor=${deepSmall}`));
  const deepRatio = percentile(deep.a, 50) / percentile(deep.b, 50);
  // The same page read raw (the Query the route runs), to tell the store's cost from DynamoDB Local's.
  // Cursors are sealed, so the raw start key is found the way the route's walk found it: by the
  // same Query, `depth` entries in.
  const rawStartKey = async (orgId: string, depth: number) => {
    let start: Record<string, unknown> | undefined;
    for (let seen = 0; seen < depth; ) {
      const out = await ctx.raw.send(
        new QueryCommand({
          TableName: ctx.stage.table,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': apiKeys.ofOrg(orgId) },
          ScanIndexForward: false,
          Limit: depth - seen,
          ExclusiveStartKey: start,
        }),
      );
      seen += out.Count ?? 0;
      start = out.LastEvaluatedKey;
      if (!start) throw new Error(`raw walk ended at ${seen} of ${depth}`);
    }
    if (!start) throw new Error('a depth of at least 1');
    return start;
  };
  const startLarge = await rawStartKey(large.orgId, 9_900);
  const startSmall = await rawStartKey(small.orgId, 80);
  const rawPage = (orgId: string, start: Record<string, unknown>) => () => {
    return timed(() =>
      ctx.raw.send(
        new QueryCommand({
          TableName: ctx.stage.table,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': apiKeys.ofOrg(orgId) },
          ScanIndexForward: false,
          Limit: 11,
          ExclusiveStartKey: start,
        }),
      ),
    );
  };
  const raw = await interleaved(samples, rawPage(large.orgId, startLarge), rawPage(small.orgId, startSmall));
  rows.push({
    scenario: 'list at scale',
    measured: 'cursor page deep in the list, 10,000 / 100 APIs, p50',
    value: round(deepRatio),
    target: '<= 1.2',
    pass: deepRatio <= 1.2,
    detail: {
      p50_10k_ms: round(percentile(deep.a, 50)),
      p50_100_ms: round(percentile(deep.b, 50)),
      depth_10k: 9_900,
      depth_100: 80,
      samples,
      raw_query_p50_10k_ms: round(percentile(raw.a, 50)),
      raw_query_p50_100_ms: round(percentile(raw.b, 50)),
      raw_ratio: round(percentile(raw.a, 50) / percentile(raw.b, 50)),
    },
  });
  return rows;
}
