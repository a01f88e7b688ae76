/**
 * Which portal events one change of a developer or a key request is (pure: from the item before
 * and after, as the change feed hands them over). A sign-up is one event; a request granted at
 * once is requested and approved in one write, so two.
 */
import type { PortalEvent } from './events';

type Item = Record<string, unknown> | undefined;

export function developerEvents(prev: Item, next: Item): PortalEvent[] {
  if (!next) return [];
  if (!prev) return ['DeveloperSignedUp'];
  if (prev.state === next.state) return [];
  if (next.state === 'active') return ['DeveloperApproved'];
  return next.state === 'disabled' ? ['DeveloperDisabled'] : [];
}

export function keyRequestEvents(prev: Item, next: Item): PortalEvent[] {
  if (!next) return [];
  if (!prev) return next.state === 'approved' ? ['KeyRequested', 'KeyRequestApproved'] : ['KeyRequested'];
  if (prev.state !== next.state) {
    if (next.state === 'approved') return ['KeyRequestApproved'];
    if (next.state === 'refused') return ['KeyRequestRefused'];
    return next.state === 'revoked' ? ['KeyRevoked'] : [];
  }
  // A second key of the same request is a roll; the first is its collection, part of the approval.
  return prev.key_hash !== undefined && next.key_hash !== prev.key_hash ? ['KeyRolled'] : [];
}
