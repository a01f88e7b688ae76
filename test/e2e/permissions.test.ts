/**
 * `user_permissions` (contract §9), swept over the route table like the credential sweep: every
 * dashboard route is called by users holding deny, read or write on the route's group (and write
 * on every other group, so only the route's own group can refuse), and by a user whose permissions
 * do not list the group. A route that reads answers 403 below read, one that changes below write,
 * naming the group and the level, and any other answer otherwise. A refused request reads nothing
 * but its credential and writes nothing (this process's DynamoDB commands are watched; the table
 * is compared too). A new dashboard route is swept with no new test code.
 */
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_GROUPS, type PermissionGroup } from '../../shared/schemas/permissions';
import { permissionOf } from '../../shared/route-def';
import { routeList } from '../../shared/routes';
import { ddb } from '../../shared/store/db/client';
import { concretePath } from '../support/credential-sweep';
import { hookBody, uid } from '../support/fixtures';
import { onEmulator, startStage, type Stage } from '../support/stage';

let s: Stage;
let orgId: string;
beforeAll(async () => {
  // Every request reads its credential from the table, so the watch below sees that the
  // permission check needs no read of its own.
  process.env.CACHE_SECONDS = '0';
  s = await startStage();
  orgId = (await s.tenant()).orgId;
});
afterAll(() => s?.close());

/** Routes any active user may call (who am I) need no group; test below. */
const dashboardRoutes = routeList.filter((r) => r.group === 'dashboard' && r.permission !== 'none');
type Variant = 'deny' | 'unlisted' | 'read' | 'write';
const VARIANTS: Variant[] = ['deny', 'unlisted', 'read', 'write'];

/** Write on every group but `group`, which gets the variant's level (or is left out). */
function permissionsFor(group: PermissionGroup, variant: Variant): Record<string, string> {
  const others = Object.fromEntries(PERMISSION_GROUPS.filter((g) => g !== group).map((g) => [g, 'write']));
  return variant === 'unlisted' ? others : { ...others, [group]: variant };
}

async function newUser(perms: unknown): Promise<{ id: string; key: string; email: string }> {
  const email = `${uid('perm')}@perm.example`;
  const r = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: email, ...(perms === undefined ? {} : { user_permissions: perms }) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { id: r.body.Meta.id, key: r.body.Meta.access_key, email };
}

const send = (key: string, r: (typeof routeList)[number]) =>
  s.dash(key, r.method, concretePath(r.path), r.method === 'GET' || r.method === 'DELETE' ? undefined : {});

/** The DynamoDB commands this process sends while `fn` runs (the stage runs in this process). */
const watched: Array<{ command: string; input: string }> = [];
let watching = false;
function watchCommands() {
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      if (watching) watched.push({ command: context.commandName ?? '?', input: JSON.stringify(args.input) });
      return next(args);
    },
    { step: 'initialize', name: 'permissionSweepWatch' },
  );
}
async function commandsOf(fn: () => Promise<unknown>) {
  watched.length = 0;
  watching = true;
  try {
    await fn();
  } finally {
    watching = false;
  }
  return [...watched];
}

/** The whole table (a test reading its own small table), to prove refusals change nothing. */
async function wholeTable(): Promise<string[]> {
  const out: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await ddb().send(new ScanCommand({ TableName: s.table, ConsistentRead: true, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) if (item.PK !== 'HEALTH') out.push(JSON.stringify(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return out.sort();
}

describe('every dashboard route × deny, unlisted, read and write on its group', () => {
  it('the table names a permission group for every dashboard route but who-am-I, and none for the others', () => {
    expect(dashboardRoutes.length).toBeGreaterThan(0);
    expect(routeList.filter((r) => r.permission === 'none').map((r) => r.name)).toEqual(['usersMe']);
    expect(dashboardRoutes.filter((r) => !permissionOf(r)).map((r) => r.name)).toEqual([]);
    expect(routeList.filter((r) => r.group !== 'dashboard' && r.permission).map((r) => r.name)).toEqual([]);
  });

  it('answers 403 naming the group and level exactly when the level is below what the route needs, having read only the credential', async () => {
    if (!onEmulator) watchCommands();
    const groups = [...new Set(dashboardRoutes.map((r) => r.permission as PermissionGroup))];
    const users = new Map<string, string>();
    for (const g of groups) for (const v of VARIANTS) users.set(`${g}:${v}`, (await newUser(permissionsFor(g, v))).key);
    const before = await wholeTable();
    let refused = 0;
    for (const r of dashboardRoutes) {
      const needs = permissionOf(r)!;
      for (const v of VARIANTS) {
        const allowed = v === 'write' || (v === 'read' && needs.level === 'read');
        if (allowed) continue;
        const what = `${r.method} ${r.path} as ${needs.group}:${v}`;
        let res: Awaited<ReturnType<typeof send>> | undefined;
        const commands = await commandsOf(async () => (res = await send(users.get(`${needs.group}:${v}`)!, r)));
        expect(res!.status, `${what}: ${res!.text}`).toBe(403);
        expect(res!.body, what).toEqual({
          Status: 'Error',
          Message: `This route needs ${needs.level} on ${needs.group} in the user's user_permissions; the user has ${v === 'read' ? 'read' : 'deny'}`,
          Meta: null,
        });
        // One GetItem of the access key, which carries the permissions, and one of whether its
        // organisation is active (CACHE_SECONDS=0 here): nothing else read or written.
        if (!onEmulator) {
          expect(
            commands.map((c) => c.command),
            what,
          ).toEqual(['GetItemCommand', 'GetItemCommand']);
          expect(commands[0]!.input, what).toContain('AKEY#');
          expect(commands[1]!.input, what).toContain('"SK":"ORG"');
        }
        refused++;
      }
    }
    expect(await wholeTable(), 'refused requests changed the table').toEqual(before);
    expect(refused).toBeGreaterThanOrEqual(dashboardRoutes.length * 2);
  });

  it('lets the request through (any answer but 403) when the level is enough', async () => {
    const groups = [...new Set(dashboardRoutes.map((r) => r.permission as PermissionGroup))];
    for (const g of groups) {
      const read = (await newUser(permissionsFor(g, 'read'))).key;
      const write = (await newUser(permissionsFor(g, 'write'))).key;
      for (const r of dashboardRoutes.filter((x) => x.permission === g)) {
        for (const [label, key] of r.access === 'read'
          ? [
              ['read', read],
              ['write', write],
            ]
          : [['write', write]]) {
          const res = await send(key!, r);
          expect(res.status, `${r.method} ${r.path} as ${g}:${label}: ${res.text}`).not.toBe(403);
        }
      }
    }
  });

  it('absent permissions, {} and "IsAdmin": "admin" grant every group; another group\'s write grants nothing', async () => {
    const keys = { absent: (await newUser(undefined)).key, empty: (await newUser({})).key, admin: (await newUser({ IsAdmin: 'admin' })).key };
    for (const r of dashboardRoutes) {
      for (const [label, key] of Object.entries(keys)) {
        expect((await send(key, r)).status, `${r.method} ${r.path} as ${label}`).not.toBe(403);
      }
    }
    const hooksOnly = (await newUser({ hooks: 'write' })).key;
    expect((await s.dash(hooksOnly, 'GET', '/api/hooks')).status).toBe(200);
    expect((await s.dash(hooksOnly, 'GET', '/api/apis')).status).toBe(403);
    expect((await s.dash(hooksOnly, 'GET', '/api/users')).status).toBe(403);
  });
});

describe('GET /api/users/me (any active user)', () => {
  it('answers every user, a deny-all one too, with its effective level on every group', async () => {
    const denyAll = await newUser(Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, 'deny'])));
    const me = await s.dash(denyAll.key, 'GET', '/api/users/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body).toEqual({
      id: denyAll.id,
      org_id: orgId,
      email_address: denyAll.email,
      first_name: '',
      last_name: '',
      active: true,
      user_permissions: Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, 'deny'])),
    });
    const some = await newUser({ hooks: 'read', keys: 'write' });
    const levels = (await s.dash(some.key, 'GET', '/api/users/me')).body.user_permissions;
    expect(levels).toMatchObject({ hooks: 'read', keys: 'write', apis: 'deny', users: 'deny' });
    const all = (await s.dash((await newUser(undefined)).key, 'GET', '/api/users/me')).body.user_permissions;
    expect(Object.values(all).every((l) => l === 'write')).toBe(true);
  });
});

describe('a user whose permissions change', () => {
  // In this process only: the emulated stage's other containers see the change within
  // CACHE_SECONDS, as for a deactivation (test/e2e/user-admin.test.ts).
  it.skipIf(onEmulator)('is refused at once in this process after PUT /admin/users lowers them, and a rotated key keeps them', async () => {
    const u = await newUser({ hooks: 'write' });
    expect((await s.dash(u.key, 'POST', '/api/hooks', hookBody('mine'))).status).toBe(200);
    const lowered = await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: true, user_permissions: { hooks: 'read' } });
    expect(lowered.status, lowered.text).toBe(200);
    const denied = await s.dash(u.key, 'POST', '/api/hooks', hookBody('again'));
    expect(denied.status).toBe(403);
    expect(denied.body.Message).toMatch(/needs write on hooks/);
    expect((await s.dash(u.key, 'GET', '/api/hooks')).status).toBe(200);
    const rotated = await s.admin('POST', `/admin/users/${u.id}/access-key`);
    expect(rotated.status).toBe(200);
    const key = rotated.body.Meta.access_key as string;
    expect((await s.dash(key, 'POST', '/api/hooks', hookBody('rotated'))).status).toBe(403);
    expect((await s.dash(key, 'GET', '/api/hooks')).status).toBe(200);
  });

  it('keeps them through an update that omits user_permissions; a body that names them (even {}) changes them', async () => {
    const u = await newUser({ apis: 'read' });
    const renamed = await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: true, first_name: 'Renamed' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.Meta).toMatchObject({ first_name: 'Renamed', user_permissions: { apis: 'read' } });
    const key = await s.dash(u.key, 'POST', '/api/keys', { access_rights: {} });
    expect(key.status, key.text).toBe(403);
    expect(key.body.Message).toBe("This route needs write on keys in the user's user_permissions; the user has deny");
    expect((await s.dash(u.key, 'GET', '/api/users/me')).body.user_permissions).toMatchObject({ apis: 'read', keys: 'deny' });
    const widened = await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: true, user_permissions: {} });
    expect(widened.body.Meta.user_permissions).toEqual({});
    expect((await s.dash(u.key, 'GET', '/api/users/me')).body.user_permissions).toMatchObject({ apis: 'write', keys: 'write' });
  });

  it("an access key stored before keys carried permissions takes its user's (one more read)", async () => {
    const u = await newUser({ hooks: 'read' });
    // The key item as it was written before: no copy of the permissions.
    const hash = (await import('node:crypto')).createHash('sha256').update(u.key).digest('hex');
    await ddb().send(
      new UpdateCommand({
        TableName: s.table,
        Key: { PK: `AKEY#${hash}`, SK: 'AKEY' },
        UpdateExpression: 'REMOVE user_permissions',
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
    expect((await s.dash(u.key, 'POST', '/api/hooks', hookBody('old key'))).status).toBe(403);
    expect((await s.dash(u.key, 'GET', '/api/hooks')).status).toBe(200);
  });
});

describe('user_permissions in POST /admin/users and PUT /admin/users/{userID}', () => {
  const bad: Array<[string, unknown, string]> = [
    ['an unknown group', { hooks: 'write', billing: 'read' }, 'body.user_permissions'],
    ['a level other than read, write or deny', { hooks: 'admin' }, 'body.user_permissions.hooks'],
    ['IsAdmin other than "admin"', { IsAdmin: 'write' }, 'body.user_permissions.IsAdmin'],
    ['a level that is no string', { keys: true }, 'body.user_permissions.keys'],
  ];

  it.each(bad)('refuses %s with 400 naming the member, storing nothing', async (_label, perms, path) => {
    const u = await newUser({});
    const before = await wholeTable();
    const created = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: `${uid('bad')}@perm.example`, user_permissions: perms });
    expect(created.status, created.text).toBe(400);
    expect(created.body.Meta.errors.map((e: { path: string }) => e.path)).toContain(path);
    const replaced = await s.admin('PUT', `/admin/users/${u.id}`, { email_address: u.email, active: true, user_permissions: perms });
    expect(replaced.status, replaced.text).toBe(400);
    expect(replaced.body.Meta.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await wholeTable()).toEqual(before);
  });

  it('stores every known group with read, write or deny, and IsAdmin', async () => {
    const perms = { ...Object.fromEntries(PERMISSION_GROUPS.map((g, i) => [g, (['read', 'write', 'deny'] as const)[i % 3]])), IsAdmin: 'admin' };
    const r = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: `${uid('all')}@perm.example`, user_permissions: perms });
    expect(r.status, r.text).toBe(200);
    expect(r.body.Meta.user_permissions).toEqual(perms);
  });
});
