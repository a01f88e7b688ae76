/**
 * Middleware: the dashboard user's `user_permissions` must reach the level the route needs on its
 * group (contract §9), or 403 naming both. It runs right after auth and reads nothing: the
 * credential read brought the permissions. So a refused request has read only its credential
 * and changed nothing, nor spent its organisation's limits.
 */
import { allows, levelOn } from '../../domain/permissions';
import { Forbidden } from '../../errors';
import { permissionOf, type RouteSpec } from '../../route-def';
import type { HttpMiddleware } from './state';

export const permission = (route: RouteSpec): HttpMiddleware => {
  const needs = permissionOf(route);
  return {
    name: 'permission',
    before: async (request) => {
      const principal = request.internal.principal!;
      if (!needs || principal.group !== 'dashboard') return;
      if (allows(principal.permissions, needs.group, needs.level)) return;
      const has = levelOn(principal.permissions, needs.group);
      throw new Forbidden(`This route needs ${needs.level} on ${needs.group} in the user's user_permissions; the user has ${has}`);
    },
  };
};
