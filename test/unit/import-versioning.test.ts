import { describe, expect, it } from 'vitest';
import { linkVersion, unlinkVersion, versionsOf } from '../../shared/domain/api-versions';
import { statusOf } from './import-fixtures';

type Any = Record<string, any>;
const base = (): Any => ({ info: { id: 'base1', name: 'Base', state: { active: true } }, upstream: { url: 'http://u' } });

describe('linkVersion', () => {
  it('first link with set_default: versioning enabled, defaults, new default', () => {
    const gw = linkVersion(base(), { childApiId: 'child1', newVersionName: 'v2', baseVersionName: 'v1', setDefault: true }) as Any;
    expect(gw.info.versioning).toEqual({
      enabled: true,
      name: 'v1',
      versions: [{ id: 'child1', name: 'v2' }],
      key: 'x-api-version',
      location: 'header',
      default: 'v2',
    });
    expect(gw.info.name).toBe('Base');
    expect(gw.upstream).toEqual({ url: 'http://u' });
  });

  it('without set_default the base stays the default; without a base name one is chosen', () => {
    const gw = linkVersion(base(), { childApiId: 'child1', newVersionName: 'v2' }) as Any;
    expect(gw.info.versioning.default).toBe('Default');
    expect(gw.info.versioning.name).toBe('Default');
  });

  it('keeps existing settings, adds without duplicates, renames a relinked child', () => {
    const b = base();
    b.info.versioning = { enabled: false, name: 'v1', key: 'X-Version', location: 'query', default: 'v1', versions: [{ id: 'c1', name: 'v2' }] };
    let gw = linkVersion(b, { childApiId: 'c2', newVersionName: 'v3' }) as Any;
    expect(gw.info.versioning).toEqual({
      enabled: true,
      name: 'v1',
      key: 'X-Version',
      location: 'query',
      default: 'v1',
      versions: [
        { id: 'c1', name: 'v2' },
        { id: 'c2', name: 'v3' },
      ],
    });
    gw = linkVersion(gw, { childApiId: 'c2', newVersionName: 'v3b', baseVersionName: 'one', setDefault: true }) as Any;
    expect(gw.info.versioning.versions).toEqual([
      { id: 'c1', name: 'v2' },
      { id: 'c2', name: 'v3b' },
    ]);
    expect(gw.info.versioning.name).toBe('one');
    expect(gw.info.versioning.default).toBe('v3b');
    expect(versionsOf(gw)).toHaveLength(2);
  });

  it('does not change its input', () => {
    const b = base();
    linkVersion(b, { childApiId: 'c', newVersionName: 'v2', setDefault: true });
    expect(b).toEqual(base());
  });

  it('422 without a version name or when linking an API to itself; 409 for a taken name', async () => {
    expect(await statusOf(() => linkVersion(base(), { childApiId: 'c', newVersionName: undefined }))).toBe(422);
    expect(await statusOf(() => linkVersion(base(), { childApiId: 'c', newVersionName: '  ' }))).toBe(422);
    expect(await statusOf(() => linkVersion(base(), { childApiId: 'base1', newVersionName: 'v2' }))).toBe(422);
    const b = base();
    b.info.versioning = { name: 'v1', versions: [{ id: 'c1', name: 'v2' }] };
    expect(await statusOf(() => linkVersion(b, { childApiId: 'c2', newVersionName: 'v2' }))).toBe(409);
    expect(await statusOf(() => linkVersion(b, { childApiId: 'c2', newVersionName: 'v1' }))).toBe(409);
  });
});

describe('unlinkVersion', () => {
  it('removes the child and moves the default back to the base', () => {
    const gw = linkVersion(base(), { childApiId: 'c1', newVersionName: 'v2', baseVersionName: 'v1', setDefault: true });
    const out = unlinkVersion(gw, 'c1') as Any;
    expect(out.info.versioning.versions).toEqual([]);
    expect(out.info.versioning.default).toBe('v1');
  });
});

describe('keepLinkedVersions', () => {
  it('keeps the stored list whatever the replacement says, and leaves unversioned APIs alone', async () => {
    const { keepLinkedVersions } = await import('../../shared/domain/api-versions');
    const stored = { info: { versioning: { versions: [{ id: 'c', name: 'v2' }] } } };
    expect(keepLinkedVersions({ info: { versioning: { enabled: true, versions: [] } } }, stored)).toEqual({
      info: { versioning: { enabled: true, versions: [{ id: 'c', name: 'v2' }] } },
    });
    expect(keepLinkedVersions({ info: { versioning: { versions: [{ id: 'x', name: 'y' }] } } }, { info: {} })).toEqual({
      info: { versioning: { versions: [] } },
    });
    const plain = { info: { name: 'n' } };
    expect(keepLinkedVersions(plain, undefined)).toBe(plain);
  });
});
