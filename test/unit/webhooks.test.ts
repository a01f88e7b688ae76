import { describe, expect, it } from 'vitest';
import { DENIED_HEADER_NAMES, HEADER_LIMITS, headerMapProblems, headerRefusal } from '../../shared/schemas/webhook-headers';
import { targetRefusal } from '../../shared/schemas/webhook-target';
import { hookInputSchema } from '../../shared/schemas/hooks';

const hook = (extra: Record<string, unknown>) => ({ method: 'POST', target_path: 'https://hooks.example/x', ...extra });
const pathsOf = (body: unknown) => {
  const r = hookInputSchema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

describe('webhook header rules', () => {
  it('refuses hop-by-hop, framing, routing and proxy headers in any case, and nothing ordinary', () => {
    for (const n of [
      'Host',
      'content-length',
      'Transfer-Encoding',
      'CONNECTION',
      'Keep-Alive',
      'Upgrade',
      'TE',
      'Trailer',
      'Expect',
      'Proxy-Authorization',
      'proxy-connection',
      'X-Forwarded-For',
      'x-forwarded-host',
      'Forwarded',
      'Via',
      'X-HTTP-Method-Override',
    ]) {
      expect(headerRefusal(n), n).toMatch(/webhooks may not set it/);
    }
    for (const n of ['Authorization', 'X-Token', 'Content-Type', 'User-Agent', 'X-Proxy', 'Hostname']) expect(headerRefusal(n), n).toBeUndefined();
    expect(DENIED_HEADER_NAMES).toEqual(expect.arrayContaining(['host', 'content-length', 'transfer-encoding', 'connection', 'proxy-*']));
  });

  it('finds names equal but for case, too many headers and too many characters', () => {
    expect(headerMapProblems({ 'X-A': '1', 'x-a': '2', 'X-B': '3' })).toEqual([{ name: 'x-a', message: 'the same header as X-A (header names ignore case)' }]);
    const many = Object.fromEntries(Array.from({ length: HEADER_LIMITS.count + 1 }, (_, i) => [`x-h${i}`, 'v']));
    expect(headerMapProblems(many)).toEqual([{ message: `at most ${HEADER_LIMITS.count} headers (${HEADER_LIMITS.count + 1} given)` }]);
    const big = { 'x-a': 'v'.repeat(8192), 'x-b': 'v'.repeat(8192) };
    expect(headerMapProblems(big)).toEqual([{ message: expect.stringMatching(/within 16384 characters \(16390 given\)/) }]);
    expect(headerMapProblems({ 'x-a': 'v'.repeat(8192), 'x-b': 'v'.repeat(8186) })).toEqual([]);
  });

  it('the schema puts each problem at its header path', () => {
    expect(pathsOf(hook({ header_map: { Host: 'evil.example' } }))).toEqual(['header_map.Host']);
    expect(pathsOf(hook({ header_map: { 'X-A': 'a', 'x-a': 'b' } }))).toEqual(['header_map.x-a']);
    expect(pathsOf(hook({ header_map: { 'X A': 'a' } }))).toEqual(['header_map.X A']);
    expect(pathsOf(hook({ header_map: { '': 'a' } }))).toEqual(['header_map.']);
    for (const v of ['a\r\nX-Injected: 1', 'a\nb', 'a\0b', 'a\x01b', 'a\x7fb', 'snow ☃']) {
      expect(pathsOf(hook({ header_map: { 'X-A': v } })), JSON.stringify(v)).toEqual(['header_map.X-A']);
    }
    expect(pathsOf(hook({ header_map: { 'X-A': '\tvisible text, ümlaut' } }))).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`x-h${i}`, 'v']));
    expect(new Set(pathsOf(hook({ header_map: many })))).toEqual(new Set(['header_map']));
  });
});

describe('webhook targets', () => {
  it('refuses literal loopback, private, link-local, metadata, multicast and unspecified addresses and localhost', () => {
    for (const u of [
      'http://127.0.0.1/x',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://10.0.0.8/',
      'http://172.16.3.4/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://224.0.0.1/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://255.255.255.255/',
      'http://100.64.0.1/',
      'http://localhost/',
      'http://LOCALHOST./',
      'http://api.localhost/',
      'http://metadata.google.internal/computeMetadata/v1/',
    ]) {
      expect(targetRefusal(u), u).toMatch(/must not point at/);
    }
  });

  it('takes public addresses and names, and refuses what is not an absolute http(s) URL', () => {
    for (const u of [
      'https://hooks.example/x',
      'http://8.8.8.8/',
      'https://[2001:4860:4860::8888]/',
      'http://other.example:8080/x?y=1',
      'http://localhost.example/',
    ]) {
      expect(targetRefusal(u), u).toBeUndefined();
    }
    for (const u of ['/relative', 'ftp://x.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'http://', 'not a url']) {
      expect(targetRefusal(u), u).toBe('must be an absolute http or https URL');
    }
    expect(pathsOf(hook({ target_path: `https://x.example/${'a'.repeat(2048)}` }))).toEqual(['target_path']);
    expect(pathsOf(hook({ target_path: 'http://10.1.2.3/hook' }))).toEqual(['target_path']);
  });
});
