/** The usage figures' pure parts (shared/domain/billing.ts): what one record changes, runs for one transaction each, CSV. */
import { describe, expect, it } from 'vitest';
import { chunksOf, dayOf, foldRun, monthBucket, MONTH_BUCKETS, seqKey, tallyChangeOf, toCsv, type SourcedChange } from '../../shared/domain/billing';

const counter = (n: number | undefined, o: Record<string, unknown> = {}) => ({
  entity: 'live_quota',
  used: 3,
  ...(n === undefined ? {} : { tally_allowed: n }),
  tally_of: 'org-a\napi-1\n2026-11-28',
  ...o,
});

describe('what one stream record changes', () => {
  it('a spend counts the unit its write added, for the request its write names', () => {
    expect(tallyChangeOf('live_quota', counter(8), counter(7))).toEqual({ org_id: 'org-a', api_id: 'api-1', day: '2026-11-28', allowed: 1, refused: {} });
    // The first tally on a counter made before the figures existed, and on a counter made by this write.
    expect(tallyChangeOf('live_quota', counter(1), counter(undefined))).toMatchObject({ allowed: 1 });
    expect(tallyChangeOf('live_quota_shard', counter(1), undefined)).toMatchObject({ allowed: 1 });
  });

  it('a write that leaves the tally alone counts nothing: a reset, a refund, the organisation quota after the key', () => {
    expect(tallyChangeOf('live_quota', counter(7, { used: 0 }), counter(7))).toBeUndefined();
    expect(tallyChangeOf('live_quota', counter(undefined), counter(undefined))).toBeUndefined();
  });

  it('a tally that names no request, or a malformed day, counts nothing', () => {
    expect(tallyChangeOf('live_quota', counter(2, { tally_of: '\napi-1\n2026-11-28' }), counter(1))).toBeUndefined();
    expect(tallyChangeOf('live_quota', counter(2, { tally_of: 'org-a\napi-1\n28/11/2026' }), counter(1))).toBeUndefined();
    expect(tallyChangeOf('live_quota', undefined, counter(1))).toBeUndefined();
  });

  it('a refusal tally counts the reasons its write added', () => {
    const item = (q: number, a?: number) => ({
      entity: 'usage_refusals',
      org_id: 'org-a',
      api_id: 'api-1',
      day: '2026-11-28',
      refused_QuotaExceeded: q,
      ...(a ? { refused_AccessDenied: a } : {}),
    });
    expect(tallyChangeOf('usage_refusals', item(3, 1), item(3))).toEqual({
      org_id: 'org-a',
      api_id: 'api-1',
      day: '2026-11-28',
      allowed: 0,
      refused: { AccessDenied: 1 },
    });
    expect(tallyChangeOf('usage_refusals', item(1), undefined)).toMatchObject({ refused: { QuotaExceeded: 1 } });
    expect(tallyChangeOf('usage_refusals', item(1), item(1))).toBeUndefined();
  });
});

const change = (source: string, seq: number, org: string, api: string, allowed = 1): SourcedChange => ({
  source,
  seq: seqKey(String(seq)),
  change: { org_id: org, api_id: api, day: '2026-11-28', allowed, refused: {} },
});

describe('runs of changes', () => {
  it('each run fits one transaction: its sources, day figures and month figures together', () => {
    const changes = Array.from({ length: 300 }, (_, i) => change(`k${i}`, i, `org-${i % 7}`, `api-${i % 11}`));
    const runs = chunksOf(changes, 100);
    expect(runs.flat()).toEqual(changes);
    for (const run of runs) {
      const items = new Set(run.flatMap((c) => [`s${c.source}`, `d${c.change.org_id}${c.change.api_id}`, `m${c.change.org_id}`]));
      expect(items.size).toBeLessThanOrEqual(100);
    }
    // Many changes of one hot key and API are one run of three items.
    expect(
      chunksOf(
        Array.from({ length: 500 }, (_, i) => change('hot', i, 'org', 'api')),
        100,
      ),
    ).toHaveLength(1);
  });

  it("a source's changes at or before its position are left out; the position moves to its last change", () => {
    const run = [change('k1', 5, 'o', 'a'), change('k1', 6, 'o', 'a'), change('k2', 7, 'o', 'b', 2), change('k1', 8, 'o', 'a')];
    const folded = foldRun(run, new Map([['k1', seqKey('6')]]));
    expect(folded.positions).toEqual(
      new Map([
        ['k1', seqKey('8')],
        ['k2', seqKey('7')],
      ]),
    );
    expect([...folded.days.values()].map((d) => [d.api_id, d.allowed])).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
    expect([...folded.months.values()].map((m) => m.allowed)).toEqual([3]);
  });

  it('sequence numbers compare as numbers once keyed, whatever their length', () => {
    expect(seqKey('999') < seqKey('1000')).toBe(true);
    expect(seqKey('100000000000000000000000000001') > seqKey('99999999999999999999999999999')).toBe(true);
  });
});

describe('days, buckets and CSV', () => {
  it('a day is the UTC date of the check', () => {
    expect(dayOf(Date.UTC(2026, 10, 30, 23, 59, 59) / 1000)).toBe('2026-11-30');
    expect(dayOf(Date.UTC(2026, 11, 1, 0, 0, 0) / 1000)).toBe('2026-12-01');
  });

  it('an organisation stays in one bucket, and buckets are used', () => {
    const buckets = new Set(Array.from({ length: 200 }, (_, i) => monthBucket(`org-${i}`)));
    expect(buckets.size).toBe(MONTH_BUCKETS);
    expect(monthBucket('org-x')).toBe(monthBucket('org-x'));
  });

  it('CSV quotes what needs quoting and makes a leading formula inert', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          { a: 'x,y', b: 3 },
          { a: '=SUM(A1)', b: 'he said "hi"' },
        ],
      ),
    ).toBe('a,b\r\n"x,y",3\r\n\'=SUM(A1),"he said ""hi"""\r\n');
  });
});
