/** The console's pure rules: permissions, error envelopes, usage periods, request bodies. */
import { describe, expect, it } from 'vitest';
import { errorOf, fieldOf, ServiceError } from '../src/api/errors';
import { contentTypeOf } from '../src/pages/apis/api-import';
import { matchesSearch, versionsOf, type ApiEntry } from '../src/pages/apis/api-fields';
import { keyBody } from '../src/pages/keys/key-create';
import { sessionForReset } from '../src/pages/keys/key-list';
import { limitsBody } from '../src/pages/limits-fields';
import { policyBody } from '../src/pages/policies/policy-form';
import { totalsOf } from '../src/pages/usage/usage';
import { rangeOf } from '../src/pages/usage/usage-range';
import { usageSeries } from '../src/pages/usage/usage-series';
import { hookBody, hookFormOf, MASK } from '../src/pages/webhooks/hook-fields';
import { allows, levelOf } from '../src/session/permissions';

describe('permissions (decisions §9)', () => {
  it('absent or {} grants every group; IsAdmin grants every group; otherwise an unlisted group is deny', () => {
    expect(levelOf(undefined, 'keys')).toBe('write');
    expect(levelOf({}, 'audit')).toBe('write');
    expect(levelOf({ IsAdmin: 'admin' }, 'policies')).toBe('write');
    expect(levelOf({ apis: 'read' }, 'apis')).toBe('read');
    expect(levelOf({ apis: 'read' }, 'hooks')).toBe('deny');
    expect(levelOf({ apis: 'deny', hooks: 'write' }, 'apis')).toBe('deny');
    expect(levelOf({ apis: 'bogus' }, 'apis')).toBe('deny');
  });
  it('write allows read and write; read allows read only; deny allows nothing', () => {
    expect([allows({ hooks: 'write' }, 'hooks', 'read'), allows({ hooks: 'write' }, 'hooks', 'write')]).toEqual([true, true]);
    expect([allows({ hooks: 'read' }, 'hooks', 'read'), allows({ hooks: 'read' }, 'hooks', 'write')]).toEqual([true, false]);
    expect([allows({ hooks: 'deny' }, 'hooks', 'read'), allows({ keys: 'write' }, 'hooks', 'read')]).toEqual([false, false]);
  });
});

describe("errors in the user's words", () => {
  const response = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });
  it('reads the envelope: message, validation paths (field names without body./query.), Retry-After, request id', () => {
    const e = errorOf(response(400, { 'x-request-id': 'r-1' }), {
      Status: 'Error',
      Message: 'Invalid request',
      Meta: {
        errors: [
          { path: 'body.target_path', message: 'must be http(s)' },
          { path: 'body.header_map.X-Token', message: 'bad value' },
          { path: 'query.listenPath', message: 'taken' },
        ],
      },
    });
    expect(e.summary).toBe('Some values were not accepted. Check the fields marked below.');
    expect([e.fieldError('target_path'), e.fieldError('header_map.X-Token'), e.fieldError('listenPath'), e.fieldError('name')]).toEqual([
      'must be http(s)',
      'bad value',
      'taken',
      undefined,
    ]);
    expect(e.requestId).toBe('r-1');
    expect(fieldOf('params.apiID')).toBe('apiID');
  });
  it('says what a 412, a 429 (with Retry-After), a 403 and a 5xx mean', () => {
    expect(errorOf(response(412), null).summary).toMatch(/^Someone changed this since you opened it/);
    expect(errorOf(response(429, { 'retry-after': '17' }), null).summary).toBe('Too many requests. Try again in 17 seconds.');
    expect(errorOf(response(429, { 'retry-after': '1' }), null).summary).toBe('Too many requests. Try again in 1 second.');
    expect(errorOf(response(429), null).summary).toBe('Too many requests.');
    expect(errorOf(response(403), { Status: 'Error', Message: 'needs write on hooks', Meta: null })).toMatchObject({
      summary: 'You do not have permission to do this.',
      detail: 'needs write on hooks',
    });
    expect(errorOf(response(503, { 'x-request-id': 'abc' }), 'oops').summary).toBe(
      'The service had a problem and nothing was changed. Try again (request abc).',
    );
    expect(new ServiceError(0, 'Failed to fetch').summary).toMatch(/could not be reached/);
  });
});

describe('usage periods (whole UTC days in the path)', () => {
  const now = Date.UTC(2026, 10, 5, 14, 30);
  it('24 hours: yesterday and today by the hour, rows from 23 hours before this hour', () => {
    expect(rangeOf('24h', now)).toEqual({
      resolution: 'hour',
      path: { startDay: '4', startMonth: '11', startYear: '2026', EndDay: '5', EndMonth: '11', EndYear: '2026' },
      since: Date.UTC(2026, 10, 4, 15),
    });
  });
  it('7 and 30 days: by the day, ending today', () => {
    expect(rangeOf('7d', now)).toMatchObject({ resolution: 'day', path: { startDay: '30', startMonth: '10', EndDay: '5' }, since: Date.UTC(2026, 9, 30) });
    expect(rangeOf('30d', Date.UTC(2026, 0, 10))).toMatchObject({
      resolution: 'day',
      path: { startDay: '12', startMonth: '12', startYear: '2025', EndDay: '10', EndMonth: '1', EndYear: '2026' },
    });
  });
  it('totals weigh latency by requests', () => {
    const row = (hits: number, error: number, latency: number) => ({
      period: '',
      hits,
      success: hits - error,
      error,
      latency_avg: latency,
      latency_max: latency,
      upstream_latency_avg: 0,
    });
    expect(totalsOf([row(1, 0, 100), row(3, 1, 20), row(0, 0, 0)])).toEqual({ hits: 4, errors: 1, latency: 40 });
  });
  it('charts counts as successes and errors that make up the requests, and no latency for a period without requests (not 0 ms)', () => {
    const row = (hits: number, error: number, latency: number) => ({
      hits,
      success: hits - error,
      error,
      latency_avg: latency,
      latency_max: latency + 5,
      upstream_latency_avg: 1,
    });
    const { requests, latency } = usageSeries([row(4, 1, 30), row(0, 0, 0), row(2, 0, 10)]);
    expect(requests.map((s) => [s.label, s.data])).toEqual([
      ['Successes', [3, 0, 2]],
      ['Errors', [1, 0, 0]],
    ]);
    expect(latency.map((s) => [s.label, s.data])).toEqual([
      ['Average', [30, null, 10]],
      ['Maximum', [35, null, 15]],
      ['Upstream average', [1, null, 1]],
    ]);
  });
});

describe('what the forms send', () => {
  it('an import: JSON when it looks like JSON, else YAML for the service to parse', () => {
    expect(contentTypeOf('{"openapi":"3.0.3"}')).toBe('application/json');
    expect(contentTypeOf('  \n{ }')).toBe('application/json');
    expect(contentTypeOf('openapi: 3.0.3')).toBe('application/x-yaml');
    expect(contentTypeOf('openapi: 3.0.3', 'pets.json')).toBe('application/json');
  });

  it('a key: access rights keyed by API id, policies, whole-number limits (empty left out), expiry in Unix seconds', () => {
    const names = new Map([['pets', 'Pets']]);
    expect(
      keyBody(
        {
          alias: ' k ',
          apis: ['pets'],
          policies: ['gold'],
          limits: { rate: '', per: '', quota_max: '2', quota_renewal_rate: '3600' },
          expires: '2030-01-01T00:00',
          inactive: false,
        },
        names,
      ),
    ).toEqual({
      alias: 'k',
      access_rights: { pets: { api_id: 'pets', api_name: 'Pets', versions: ['Default'] } },
      apply_policies: ['gold'],
      quota_max: 2,
      quota_renewal_rate: 3600,
      expires: Math.floor(new Date('2030-01-01T00:00').getTime() / 1000),
    });
    expect(limitsBody({ rate: '0', per: ' ', quota_max: '-1', quota_renewal_rate: '' })).toEqual({ rate: 0, quota_max: -1 });
  });

  it('a quota reset sends the stored session without the live quota the service owns', () => {
    const body = sessionForReset({ alias: 'k', quota_max: 2, quota_remaining: 0, quota_renews: 123, access_rights: {} } as Parameters<
      typeof sessionForReset
    >[0]);
    expect(body).toEqual({ alias: 'k', quota_max: 2, access_rights: {} });
  });

  it('a policy edit keeps the members the form does not show and replaces the ones it does', () => {
    const read = {
      id: 'gold',
      name: 'Old',
      rate: 1,
      per: 1,
      quota_max: 5,
      quota_renewal_rate: 60,
      partitions: { quota: true },
      tags: ['t'],
      access_rights: {},
    } as unknown as Parameters<typeof policyBody>[2];
    const body = policyBody(
      { id: 'gold', name: ' Gold ', limits: { rate: '10', per: '60', quota_max: '', quota_renewal_rate: '' }, apis: ['pets'], active: false },
      new Map([['pets', 'Pets']]),
      read,
    );
    expect(body).toEqual({
      id: 'gold',
      name: 'Gold',
      rate: 10,
      per: 60,
      active: false,
      partitions: { quota: true },
      tags: ['t'],
      access_rights: { pets: { api_id: 'pets', api_name: 'Pets', versions: ['Default'] } },
    });
  });

  it('a webhook edit sends the mask back for the header values it did not change', () => {
    const form = hookFormOf({
      id: 'h',
      org_id: 'o',
      name: 'n',
      method: 'POST',
      target_path: 'https://x.example/',
      header_map: { 'X-Token': MASK },
      created_at: '',
      updated_at: '',
      version: 1,
    });
    form.headers.push({ name: ' X-New ', value: 'v' }, { name: '', value: 'ignored' });
    expect(hookBody({ ...form, event_timeout: '30' })).toEqual({
      name: 'n',
      method: 'POST',
      target_path: 'https://x.example/',
      header_map: { 'X-Token': MASK, 'X-New': 'v' },
      event_timeout: 30,
    });
  });
});

describe('what the API pages read from a listing entry', () => {
  const entry = (def: Record<string, unknown>) =>
    ({
      api_definition: def,
      api_model: {},
      categories: [],
      created_at: '',
      updated_at: '',
      hook_references: [],
      is_site: false,
      sort_by: 0,
      user_group_owners: [],
      user_owners: [],
    }) as ApiEntry;
  it('searches name, id and listen path by every word, ignoring case', () => {
    const e = entry({ api_id: 'pets-1', name: 'Pet Store', proxy: { listen_path: '/pets/' } });
    expect([matchesSearch(e, 'store'), matchesSearch(e, 'PET /pets/'), matchesSearch(e, 'pets-1'), matchesSearch(e, 'cats')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
  it('lists the versions of a base API by name, with the default', () => {
    const e = entry({ definition: { enabled: true, default: 'v2', key: 'x-api-version', location: 'header', versions: { v2: 'pets-2' } } });
    expect(versionsOf(e)).toEqual({ enabled: true, defaultName: 'v2', location: 'header', key: 'x-api-version', versions: [{ name: 'v2', apiId: 'pets-2' }] });
  });
});
