import { lookup } from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseFetchedDocument } from '../../shared/domain/oas-parse';
import { fetchDocument } from '../../shared/net/fetch-document';
import { addressRefusal } from '../../shared/ip-addresses';
import { errorOf, petstore, petstoreYaml } from './import-fixtures';

// Only this loopback server is ever contacted; every refused address is refused before connecting.
let server: http.Server;
let base: string;
let hits = 0;
const SIX_MB = 6 * 1024 * 1024;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    switch (req.url) {
      case '/petstore.yaml':
        res.writeHead(200, { 'content-type': 'application/x-yaml' });
        return res.end(petstoreYaml);
      case '/redirect':
        res.writeHead(302, { location: 'http://10.0.0.1/internal.json' });
        return res.end();
      case '/missing':
        res.writeHead(404);
        return res.end('no');
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(SIX_MB) });
        return res.end(Buffer.alloc(SIX_MB, 0x20));
      case '/big-chunked': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        let sent = 0;
        const push = () => {
          while (sent < SIX_MB) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', push);
          }
          res.end();
        };
        return push();
      }
      case '/slow':
        return; // never answers
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const allow = { allowLoopbackForTests: true };

describe('fetchDocument', () => {
  it('fetches a document from a local server with the test allowance', async () => {
    const got = await fetchDocument(`${base}/petstore.yaml`, allow);
    expect(got.contentType).toBe('application/x-yaml');
    expect(parseFetchedDocument(got.body, got.contentType)).toEqual(petstore);
  });

  it('connects by host name through the pinned, checked address', async () => {
    const [first] = await lookup('localhost', { all: true, verbatim: true });
    const local = http.createServer((_req, res) => res.end(JSON.stringify(petstore)));
    await new Promise<void>((r) => local.listen(0, first!.address, r));
    try {
      const port = (local.address() as AddressInfo).port;
      const got = await fetchDocument(`http://localhost:${port}/doc`, allow);
      expect(JSON.parse(got.body)).toEqual(petstore);
    } finally {
      await new Promise((r) => local.close(r));
    }
  });

  it('refuses the same server without the allowance, without contacting it', async () => {
    const before = hits;
    const e = await errorOf(() => fetchDocument(`${base}/petstore.yaml`));
    expect(e.status).toBe(400);
    expect(e.message).toContain('loopback');
    expect(hits).toBe(before);
  });

  it('ignores the allowance outside a test runtime', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('VITEST', '');
    try {
      const before = hits;
      expect((await errorOf(() => fetchDocument(`${base}/petstore.yaml`, allow))).status).toBe(400);
      expect(hits).toBe(before);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
    ['http://10.0.0.1/', 'private'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:a9fe:a9fe]/', 'linkLocal'],
    ['http://[fd00:ec2::254]/', 'uniqueLocal'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://100.100.100.200/', 'carrierGradeNat'],
    ['http://localhost/', 'loopback'],
  ])('refuses %s (%s), even with the test allowance unless it is loopback', async (url, range) => {
    const e = await errorOf(() => fetchDocument(url));
    expect(e.status).toBe(400);
    expect(e.message).toContain(range);
    if (range !== 'loopback') expect((await errorOf(() => fetchDocument(url, allow))).status).toBe(400);
  });

  it('refuses other schemes and invalid URLs', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1/', 'not a url', '/relative.json']) {
      const e = await errorOf(() => fetchDocument(url, allow));
      expect(e.status, url).toBe(400);
    }
    expect((await errorOf(() => fetchDocument('file:///etc/passwd'))).message).toContain('http or https');
  });

  it('does not follow redirects', async () => {
    const e = await errorOf(() => fetchDocument(`${base}/redirect`, allow));
    expect(e.status).toBe(400);
    expect(e.message).toContain('redirects are not followed');
  });

  it('refuses non-2xx answers', async () => {
    const e = await errorOf(() => fetchDocument(`${base}/missing`, allow));
    expect(e.status).toBe(400);
    expect(e.message).toContain('404');
  });

  it('refuses bodies over 5 MB, declared or streamed', async () => {
    for (const path of ['/big-declared', '/big-chunked']) {
      const e = await errorOf(() => fetchDocument(`${base}${path}`, allow));
      expect(e.status, path).toBe(400);
      expect(e.message).toContain('larger than 5 MB');
    }
  });

  it('gives up after the time limit', async () => {
    const started = Date.now();
    const e = await errorOf(() => fetchDocument(`${base}/slow`, { ...allow, timeoutMs: 300 }));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/longer than/);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('addressRefusal', () => {
  it('allows public unicast only', () => {
    expect(addressRefusal('8.8.8.8')).toBeUndefined();
    expect(addressRefusal('2606:4700:4700::1111')).toBeUndefined();
    expect(addressRefusal('::ffff:8.8.8.8')).toBeUndefined();
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '0.0.0.0',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'nonsense',
    ]) {
      expect(addressRefusal(a), a).toBeDefined();
    }
    expect(addressRefusal('127.0.0.1', true)).toBeUndefined();
    expect(addressRefusal('10.0.0.1', true)).toBe('private');
  });

  it('refuses IPv4 carried in IPv6 the way it refuses the IPv4 address, and IPv6 outside global unicast', () => {
    for (const a of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe']) {
      expect(addressRefusal(a), a).toBeDefined();
    }
    // IPv4-compatible (deprecated ::/96), IPv4-translated, NAT64 local use, discard, site-local.
    for (const a of [
      '::127.0.0.1',
      '::7f00:1',
      '::169.254.169.254',
      '::8.8.8.8',
      '::808:808',
      '::ffff:0:7f00:1',
      '64:ff9b:1::7f00:1',
      '100::1',
      'fec0::1',
      '2001:db8::1',
    ]) {
      expect(addressRefusal(a), a).toBeDefined();
    }
    expect(addressRefusal('::127.0.0.1')).toBe('non-global IPv6');
    expect(addressRefusal('::8.8.8.8')).toBe('non-global IPv6');
    expect(addressRefusal('fe80::1%eth0')).toBeDefined();
    expect(addressRefusal('::127.0.0.1', true)).toBe('non-global IPv6');
    expect(addressRefusal('2a00:1450:4001:80b::200e')).toBeUndefined();
  });

  it('refuses a document URL naming [::127.0.0.1] before any connection', async () => {
    for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
      const e = await errorOf(() => fetchDocument(`http://${host}:9/doc.json`));
      expect(e.status, host).toBe(400);
      expect(e.message, host).toMatch(/only public addresses may be fetched/);
    }
  });
});
