import { afterEach, describe, expect, it } from 'vitest';
import { config, resetConfig } from '../../shared/config';
import { checkUpstreamAllowed, isAllowedUpstream, parseHostAllowList } from '../../shared/domain/upstream-hosts';
import { upstreamCheck } from '../../shared/services/upstream-allow-list';
import { errorOf } from './import-fixtures';

describe('UPSTREAM_ALLOWED_HOSTS', () => {
  afterEach(() => {
    delete process.env.UPSTREAM_ALLOWED_HOSTS;
    resetConfig();
  });

  it('is off unless set: any upstream passes', () => {
    expect(parseHostAllowList(undefined)).toBeUndefined();
    expect(parseHostAllowList(' , ')).toBeUndefined();
    expect(() => checkUpstreamAllowed('http://169.254.169.254/', undefined, 'x')).not.toThrow();
  });

  it('matches names exactly or below a *. wildcard, and IP literals against addresses and CIDR ranges', () => {
    const list = parseHostAllowList('api.example.com, *.svc.example.net  10.0.0.0/8\nfd00::/8,192.0.2.7,2001:db8::1')!;
    const allowed = [
      'https://api.example.com/v1',
      'http://API.Example.com.:8080/',
      'http://a.svc.example.net/',
      'http://a.b.svc.example.net/',
      'http://10.1.2.3/',
      'http://[fd00::1]/',
      'http://192.0.2.7:81/',
      'http://[2001:db8::1]/',
      'http://[::ffff:10.0.0.1]/',
    ];
    const refused = [
      'http://example.com/',
      'http://xapi.example.com/',
      'http://svc.example.net/',
      'http://a.svc.example.net.evil.example/',
      'http://11.0.0.1/',
      'http://192.0.2.8/',
      'http://[::1]/',
      'http://[::10.0.0.1]/',
      'http://localhost/',
      'not a url',
    ];
    for (const u of allowed) expect(isAllowedUpstream(u, list), u).toBe(true);
    for (const u of refused) expect(isAllowedUpstream(u, list), u).toBe(false);
  });

  it('an upstream outside the list is 400 naming where it came from', async () => {
    const list = parseHostAllowList('api.example.com');
    const e = await errorOf(() => checkUpstreamAllowed('http://10.0.0.1/', list, 'query.upstreamURL'));
    expect(e.status).toBe(400);
    expect(e.details).toEqual([{ path: 'query.upstreamURL', message: 'host not in UPSTREAM_ALLOWED_HOSTS' }]);
  });

  it('is parsed where upstreams are checked, and an invalid entry fails that check with its name', async () => {
    expect(await upstreamCheck()).toBeUndefined();
    process.env.UPSTREAM_ALLOWED_HOSTS = 'api.example.com,10.0.0.0/8';
    resetConfig();
    const check = (await upstreamCheck())!;
    expect(() => check('https://api.example.com/v1', 'x')).not.toThrow();
    expect(() => check('http://10.1.2.3/', 'x')).not.toThrow();
    expect((await errorOf(() => check('https://elsewhere.example.com/', 'query.upstreamURL'))).details).toEqual([
      { path: 'query.upstreamURL', message: 'host not in UPSTREAM_ALLOWED_HOSTS' },
    ]);
    for (const bad of ['http://api.example.com', '10.0.0.0/99', 'a b/c', '*.', 'api.example.com:8080']) {
      process.env.UPSTREAM_ALLOWED_HOSTS = bad;
      resetConfig();
      // The configuration of every other function still reads.
      expect(config().upstreamAllowedHosts).toBe(bad);
      await expect(upstreamCheck(), bad).rejects.toThrow(/UPSTREAM_ALLOWED_HOSTS: ".+" is not a host name/);
    }
  });
});
