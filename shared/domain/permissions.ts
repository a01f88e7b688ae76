/**
 * Whether a dashboard user's `user_permissions` let it use a route (contract §9). Pure: the route
 * names its group and level (shared/route-def.ts), the credential read brings the permissions.
 */
import type { PermissionGroup, PermissionLevel } from '../schemas/permissions';

/** What is stored on a user: validated on write, but users stored earlier may hold anything. */
export type StoredPermissions = Readonly<Record<string, unknown>> | undefined;

/**
 * The level a user has on a group: every group when the permissions are absent or `{}` (users made
 * before the rule keep what they had) or hold `"IsAdmin": "admin"`; otherwise the group's own
 * level, and deny for a group not listed (or listed with anything but read or write).
 */
export function levelOn(perms: StoredPermissions, group: PermissionGroup): PermissionLevel {
  if (!perms || Object.keys(perms).length === 0 || perms.IsAdmin === 'admin') return 'write';
  const own = perms[group];
  return own === 'read' || own === 'write' ? own : 'deny';
}

/** A route that reads needs read or write on its group; one that changes needs write. */
export function allows(perms: StoredPermissions, group: PermissionGroup, needs: 'read' | 'write'): boolean {
  const has = levelOn(perms, group);
  return has === 'write' || (needs === 'read' && has === 'read');
}
