import { describe, expect, it } from 'vitest';
import { pageCount, pageRequest } from '../../shared/domain/paging';

describe('page requests (contract §5)', () => {
  it('treats absent and 0 as page 1, negative as all', () => {
    expect(pageRequest({})).toEqual({ mode: 'page', page: 1, size: 10, offset: 0 });
    expect(pageRequest({ p: 0 })).toMatchObject({ page: 1, offset: 0 });
    expect(pageRequest({ p: 3 })).toMatchObject({ page: 3, offset: 20 });
    expect(pageRequest({ p: -1 })).toEqual({ mode: 'all' });
    expect(pageRequest({ p: 2, page_size: 25 })).toMatchObject({ offset: 25, size: 25 });
  });

  it('prefers a cursor over a page number', () => {
    expect(pageRequest({ p: 5, cursor: 'abc' })).toEqual({ mode: 'cursor', cursor: 'abc', size: 10 });
  });

  it('counts pages as ceil(total / size); all is one page', () => {
    const req = pageRequest({});
    expect(pageCount(25, req)).toBe(3);
    expect(pageCount(20, req)).toBe(2);
    expect(pageCount(0, req)).toBe(0);
    expect(pageCount(25, pageRequest({ p: -1 }))).toBe(1);
  });
});
