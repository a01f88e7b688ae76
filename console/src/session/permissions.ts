/**
 * What a user may use (decisions §9): `user_permissions` maps an object group to read, write or
 * deny; `"IsAdmin": "admin"` grants every group; absent or `{}` grants every group; otherwise an
 * unlisted group is deny. The console hides what a user may not use; the service still decides
 * (a 403 is shown like any refusal).
 */
export type Group = 'apis' | 'keys' | 'policies' | 'hooks' | 'assets' | 'oauth' | 'analytics' | 'users' | 'audit' | 'portal';
export type Level = 'read' | 'write';

export function levelOf(permissions: Record<string, unknown> | undefined, group: Group): Level | 'deny' {
  if (!permissions || Object.keys(permissions).length === 0 || permissions.IsAdmin === 'admin') return 'write';
  const level = permissions[group];
  return level === 'write' || level === 'read' ? level : 'deny';
}

export function allows(permissions: Record<string, unknown> | undefined, group: Group, level: Level): boolean {
  const has = levelOf(permissions, group);
  return has === 'write' || (has === 'read' && level === 'read');
}
