/**
 * Events and their payloads (contract §11). Pure: which event a refused check records, which
 * `monitor.trigger_limits` percentages a spend crossed, the payload a webhook receives and the
 * id of one delivery.
 */
import { createHash } from 'node:crypto';
import type { DenialReason } from './quota';

/** Events of the data-plane check (the reference gateway's names). */
const CHECK_EVENTS = ['QuotaExceeded', 'RatelimitExceeded', 'OrgQuotaExceeded', 'KeyExpired', 'AuthFailure', 'TriggerExceeded'] as const;
/** Events of the change feed, for keys of an API. */
const KEY_EVENTS = ['TokenCreated', 'TokenUpdated', 'TokenDeleted'] as const;
/** Events of the developer portal (docs/using/developer-portal.md), routed to the hooks its settings name. */
const PORTAL_EVENTS = [
  'DeveloperSignedUp',
  'DeveloperApproved',
  'DeveloperDisabled',
  'KeyRequested',
  'KeyRequestApproved',
  'KeyRequestRefused',
  'KeyRolled',
  'KeyRevoked',
] as const;
const EVENT_NAMES = [...CHECK_EVENTS, ...KEY_EVENTS, ...PORTAL_EVENTS, 'Ping'] as const;

export type CheckEvent = (typeof CHECK_EVENTS)[number];
export type KeyEvent = (typeof KEY_EVENTS)[number];
export type PortalEvent = (typeof PORTAL_EVENTS)[number];
export type EventName = (typeof EVENT_NAMES)[number];

/**
 * The event a refused check records. An unknown or inactive key, a key of a suspended organisation
 * and a key that does not grant the API are an `AuthFailure` of that API (the payload's `data.reason` keeps the precise one).
 */
export const EVENT_OF_REFUSAL: Record<DenialReason, CheckEvent> = {
  UnknownKey: 'AuthFailure',
  KeyInactive: 'AuthFailure',
  OrgSuspended: 'AuthFailure',
  AccessDenied: 'AuthFailure',
  KeyExpired: 'KeyExpired',
  QuotaExceeded: 'QuotaExceeded',
  RateLimitExceeded: 'RatelimitExceeded',
};

export const EVENT_MESSAGES: Record<EventName, string> = {
  QuotaExceeded: 'Key quota limit exceeded',
  RatelimitExceeded: 'Key rate limit exceeded',
  OrgQuotaExceeded: 'Organisation quota limit exceeded',
  KeyExpired: 'Key has expired',
  AuthFailure: 'Key not authorised for this API',
  TriggerExceeded: 'Key quota usage crossed a trigger limit',
  TokenCreated: 'Key created',
  TokenUpdated: 'Key updated',
  TokenDeleted: 'Key deleted',
  DeveloperSignedUp: 'A developer signed up to the portal',
  DeveloperApproved: 'A developer of the portal is active',
  DeveloperDisabled: 'A developer of the portal is disabled',
  KeyRequested: 'A developer requested a key',
  KeyRequestApproved: 'A key request was approved',
  KeyRequestRefused: 'A key request was refused',
  KeyRolled: "A developer rolled a key's secret",
  KeyRevoked: 'A developer revoked a key',
  Ping: 'Test delivery',
};

/**
 * The `monitor.trigger_limits` percentages that the spend which took the key's quota to `used`
 * crossed. A limit p is crossed by the unit that brings usage to ceil(max * p / 100): every spend
 * adds exactly one and a conditional ADD hands each count to exactly one request, so each
 * percentage fires once per quota window with no extra read or write.
 */
export function crossedTriggers(limits: readonly number[] | null | undefined, quotaMax: number, used: number): number[] {
  if (!limits?.length || quotaMax <= 0) return [];
  const crossed = new Set<number>();
  for (const p of limits) {
    if (!Number.isFinite(p) || p <= 0 || p > 100) continue;
    if (Math.max(1, Math.ceil((quotaMax * p) / 100 - 1e-9)) === used) crossed.add(p);
  }
  return [...crossed].sort((a, b) => a - b);
}

/** What a webhook receives (never the clear key). */
export interface EventPayload {
  id: string;
  event: EventName;
  occurred_at: string;
  org_id: string;
  api_id: string;
  key_hash: string;
  message: string;
  data: Record<string, unknown>;
}

/**
 * The id of the delivery of one event to one hook: the event's time (12 hex of milliseconds, so
 * ids sort by time and the log lists newest first by key) then 12 hex of a hash of the pair, so a
 * change-feed record seen twice makes the same delivery, never a second one.
 */
export function deliveryIdOf(occurredAt: string, eventId: string, hookId: string): string {
  const ms = Math.max(0, Math.min(Date.parse(occurredAt) || 0, 0xffffffffffff));
  return ms.toString(16).padStart(12, '0') + createHash('sha256').update(`${eventId}\n${hookId}`).digest('hex').slice(0, 12);
}
