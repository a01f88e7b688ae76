/**
 * GET /api/apis refuses an answer over the 6 MB response limit while it reads the list
 * (docs/reference/limits.md), so `p=-1` never builds, let alone serialises, a list that large.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordFromClassic } from '../../shared/domain/api-builders';
import { ResponseTooLarge } from '../../shared/errors';
import { insertApi, loadApiPage } from '../../shared/store/apis';
import { insertOrganisation } from '../../shared/store/organisations';
import { useTestTable } from '../support/table';

beforeAll(async () => {
  await useTestTable();
});

async function apisOf(orgId: string, count: number, text: () => string): Promise<void> {
  // An API's organisation must exist (contract §3).
  const now = new Date().toISOString();
  await insertOrganisation({ id: orgId, created_at: now, updated_at: now, version: 1 });
  for (let i = 0; i < count; i++) {
    const proxy = { listen_path: `/${orgId}-${i}/` };
    await insertApi(recordFromClassic({ api_id: `${orgId}-${i}`, name: `api ${i}`, org_id: orgId, proxy, description: text() }, new Date().toISOString()));
  }
}

describe('listApis and the response limit', () => {
  it('refuses a list of documents that barely compress (their compressed sizes alone pass 6 MB)', async () => {
    // Random text barely compresses: 3 x 3.3 MB stored as 3 x ~2.5 MB of parts.
    await apisOf('rand', 3, () => randomBytes(2_500_000).toString('base64'));
    await expect(loadApiPage('rand', 'name', { mode: 'all' })).rejects.toBeInstanceOf(ResponseTooLarge);
    await expect(loadApiPage('rand', 'name', { mode: 'page', page: 1, offset: 0, size: 2 })).rejects.toBeInstanceOf(ResponseTooLarge);
    const page = await loadApiPage('rand', 'name', { mode: 'page', page: 1, offset: 0, size: 1 });
    expect(page.apis.map((a) => a.api_id)).toEqual(['rand-0']);
  });

  it('refuses a list of documents that compress well, from their decompressed sizes', async () => {
    // 2 x 3.2 MB of JSON that gzip makes a few KB.
    await apisOf('text', 2, () => 'abcdefgh'.repeat(400_000));
    await expect(loadApiPage('text', 'name', { mode: 'all' })).rejects.toMatchObject({
      status: 400,
      message: 'The result is larger than the 6 MB response limit; ask for it in pages (p, page_size or cursor)',
    });
    expect((await loadApiPage('text', 'name', { mode: 'page', page: 2, offset: 1, size: 1 })).apis.map((a) => a.api_id)).toEqual(['text-1']);
  });
});
