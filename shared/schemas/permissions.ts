import * as z from 'zod';

/**
 * The object groups a dashboard user's `user_permissions` name (contract §9), as the reference
 * dashboard names them. Every dashboard route belongs to one (its `permission` in the route table).
 */
export const PERMISSION_GROUPS = ['apis', 'keys', 'policies', 'hooks', 'assets', 'oauth', 'analytics', 'users', 'audit', 'portal'] as const;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];

/** What a user may do with a group: read it, change it (write includes read), or nothing. */
export const permissionLevelSchema = /* @__PURE__ */ (() => z.enum(['read', 'write', 'deny']))();
export type PermissionLevel = z.infer<typeof permissionLevelSchema>;

/**
 * `user_permissions` of POST /admin/users and PUT /admin/users/{userID}: a level per group, and
 * `"IsAdmin": "admin"` for every group. Absent or `{}`: every group; otherwise a group not listed is
 * deny. An unknown group is refused (400 naming it): a misspelt one would otherwise be ignored and
 * the group it meant silently denied.
 */
export const userPermissionsSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...(Object.fromEntries(PERMISSION_GROUPS.map((g) => [g, permissionLevelSchema.optional()])) as Record<
        PermissionGroup,
        z.ZodOptional<typeof permissionLevelSchema>
      >),
      IsAdmin: z.literal('admin').optional(),
    })
    .meta({
      description:
        'A level per object group (read, write or deny); "IsAdmin": "admin" grants every group. Absent or ' +
        '{}: every group; otherwise an unlisted group is deny (contract §9).',
    }))();
