/**
 * Numbers said in words without Intl (shared/lib/thousands.ts): ICU's locale data takes about
 * 12 ms to load on first use, which the schema modules paid at every cold start.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { thousands } from '../../shared/lib/thousands';

describe('thousands', () => {
  it('writes what toLocaleString("en-US") writes', () => {
    for (const n of [0, 7, 999, 1000, 1024, 65536, 1_000_000, 123_456_789, 2 ** 53 - 1, -1234, 1234.5, 0.25]) {
      expect(thousands(n), String(n)).toBe(n.toLocaleString('en-US', { maximumFractionDigits: 20 }));
    }
  });

  it('the service code never asks Intl for a number (comments aside)', () => {
    const files = execFileSync('git', ['ls-files', 'shared', 'functions', 'infra'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    const found = files.filter((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .some((line) => !/^\s*(\/\/|\*)/.test(line) && /\.toLocaleString\(|\bIntl\.NumberFormat/.test(line)),
    );
    expect(found).toEqual([]);
  });
});
