/** Webhooks of an organisation. Part of the route table (shared/routes.ts). */
import { WEBHOOK_LIMITS } from '../limits';
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdSchema } from '../schemas/common';
import {
  deliveryListQuerySchema,
  deliveryListSchema,
  hookInputSchema,
  hookListQuerySchema,
  hookListSchema,
  hookSchema,
  hookSecretAnswerSchema,
  pingAnswerSchema,
} from '../schemas/hooks';
import { anyCase } from '../schemas/url-patterns';
import { DENIED_HEADER_NAMES, HEADER_LIMITS } from '../schemas/webhook-headers';

const target =
  'target_path must not name localhost (or a name under it), metadata.google.internal, or a literal address outside public ' +
  'unicast (loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved; IPv4 in any spelling).';
const deniedNames = /* @__PURE__ */ (() => DENIED_HEADER_NAMES.filter((n) => !n.endsWith('*')).map(anyCase))();
const deniedPrefixes = /* @__PURE__ */ (() => DENIED_HEADER_NAMES.filter((n) => n.endsWith('*')).map((n) => anyCase(n.slice(0, -1))))();
/**
 * What JSON Schema can say of header_map (the header count and the names the delivery owns, in
 * any case), for the document. Names equal but for case and the total size stay in the
 * description; target_path's form is its schema's.
 */
const bodyRule = /* @__PURE__ */ (() => ({
  properties: {
    header_map: {
      maxProperties: HEADER_LIMITS.count,
      propertyNames: { not: { pattern: `^(?:(?:${deniedNames.join('|')})$|${deniedPrefixes.join('|')})` } },
    },
  },
}))();
const signature =
  'X-Gw-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">; receivers refuse a t more than 300 s from their clock; contract §11';
const headers =
  'header_map: at most 50 headers and 16,384 characters of names and values together; names unique ignoring case. Values are ' +
  'write-only: reads show each as ******** and a value of ******** keeps the one stored under that name (400 when there is none), ' +
  'so a read can be sent back without the secrets it hides. So are the credentials of target_path (its user:password@ and the values ' +
  'of query parameters named like credentials): ******** in one of their places keeps the stored one.';
const noSuchHook = 'No such webhook';

export const hooksCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/hooks',
    group: 'dashboard',
    access: 'write',
    permission: 'hooks',
    idempotent: true,
    secrets: ['signing_secret'],
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'hook', 'idempotency', 'org', 'org_limit', 'user'],
    summary:
      'Create a webhook: method (DELETE, GET, PUT, POST, PATCH) and an absolute http(s) target_path to a public host required; ' +
      'header_map limited (docs/reference/limits.md); Meta is the new id, signing_secret its signing secret (shown this once)',
    description: `${target} ${headers} The answer carries the hook's signing secret (signing_secret) this once; deliveries are signed with it (${signature}).`,
    success: 'Webhook created; Meta is its id, signing_secret its signing secret (shown this once)',
    successHeaders: ['ETag'],
    statuses: {
      400: 'A header value or a target_path credential of ******** (it keeps a stored value, and a new webhook has none)',
      409: `The organisation has ${WEBHOOK_LIMITS.hooksPerOrg} webhooks, the most it may have (exact under concurrent creates); delete one first`,
    },
    body: hookInputSchema,
    result: hookSecretAnswerSchema,
    doc: { bodyRule },
  }))();

export const hooksList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/hooks',
    group: 'dashboard',
    access: 'read',
    permission: 'hooks',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'org', 'user'],
    summary: "List the caller's organisation's webhooks in creation order, paged",
    description: "Webhooks of the caller's organisation in creation order, paged (contract §5).",
    success: 'A page of webhooks',
    query: hookListQuerySchema,
    result: hookListSchema,
  }))();

export const hooksGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/hooks/{hookID}',
    group: 'dashboard',
    access: 'read',
    permission: 'hooks',
    tableActions: ['GetItem'],
    tableEntities: ['access_key', 'hook'],
    summary: 'Get a webhook',
    description: "A webhook of the caller's organisation.",
    success: 'The webhook',
    successHeaders: ['ETag'],
    statuses: { 404: noSuchHook },
    result: hookSchema,
  }))();

export const hooksUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/hooks/{hookID}',
    group: 'dashboard',
    access: 'write',
    permission: 'hooks',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['access_key', 'hook', 'org_limit'],
    summary: 'Replace a webhook: omitted members are emptied',
    description: `Replaces the whole webhook: omitted members are emptied. ${target} ${headers}`,
    success: 'Webhook updated; Meta is its id',
    successHeaders: ['ETag'],
    statuses: {
      400:
        'A header value of ******** under a name the webhook stores no value for, a target_path credential of ******** where the stored ' +
        'target has none, or a header_map past its limits with the kept values',
      404: noSuchHook,
    },
    body: hookInputSchema,
    result: okIdSchema,
    doc: { bodyRule },
  }))();

export const hooksDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/api/hooks/{hookID}',
    group: 'dashboard',
    access: 'write',
    permission: 'hooks',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'deletion', 'hook', 'org', 'org_limit'],
    summary: 'Delete a webhook',
    description: "A webhook of the caller's organisation.",
    success: 'Webhook deleted; Meta is its id',
    statuses: { 404: noSuchHook },
    result: okIdSchema,
  }))();

export const hooksSigningSecret = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/hooks/{hookID}/signing-secret',
    group: 'dashboard',
    access: 'write',
    permission: 'hooks',
    serviceKey: true,
    tableActions: ['GetItem', 'UpdateItem'],
    tableEntities: ['access_key', 'hook', 'org_limit'],
    summary:
      "Rotate a webhook's signing secret: answers the new one once (signing_secret); deliveries are signed with it from now on, " +
      'and with the old one too for HOOK_SECRET_ROTATION_SECONDS (24 h)',
    description:
      `A new signing secret signs every delivery from now on (${signature}). For HOOK_SECRET_ROTATION_SECONDS (default 24 h) deliveries ` +
      'also carry a second v1= made with the replaced secret (t=...,v1=<new>,v1=<old>), so a receiver accepts either while it switches; ' +
      'after that only the new one signs.',
    success: 'Signing secret rotated; Meta is the hook id, signing_secret the new secret (shown this once)',
    successHeaders: ['ETag'],
    statuses: { 404: noSuchHook },
    result: hookSecretAnswerSchema,
  }))();

export const hooksDeliveries = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/hooks/{hookID}/deliveries',
    group: 'dashboard',
    access: 'read',
    permission: 'hooks',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'delivery', 'hook'],
    summary:
      "A webhook's delivery log, newest first, paged: status (pending, delivered, failed), attempts, last response code, duration, " +
      'next attempt, error class; entries expire after 30 days',
    description:
      'The delivery log of a webhook, newest first, paged (contract §5): one entry per event delivered to it, with its status (pending, delivered, failed), ' +
      'attempts, last response code, duration, next attempt time and error class (refused_target, connection_failed, tls_error, timeout, http_error, ' +
      'hook_deleted, refused_headers, secret_unavailable: never an address, DNS answer or system error). Entries expire 30 days after their event, ' +
      'so no count is kept: pages is the pages seen (this page and those before it, plus one while next_cursor is answered; exact on the last page).',
    success: 'A page of deliveries',
    statuses: { 404: noSuchHook },
    query: deliveryListQuerySchema,
    result: deliveryListSchema,
  }))();

export const hooksRedeliver = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/hooks/{hookID}/deliveries/{deliveryID}/redeliver',
    group: 'dashboard',
    access: 'write',
    permission: 'hooks',
    orgLimit: 'hookTest',
    tableActions: ['GetItem', 'UpdateItem'],
    tableEntities: ['access_key', 'delivery', 'org_limit'],
    summary: 'Queue one more attempt of a delivery, due now',
    description: 'Queues one more attempt of a delivery, due now, whatever its status; the attempt is logged like the others.',
    success: 'Delivery queued; Meta is the delivery id',
    statuses: { 404: 'No such webhook or delivery' },
    result: okIdSchema,
  }))();

export const hooksTest = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/hooks/{hookID}/test',
    group: 'dashboard',
    access: 'write',
    permission: 'hooks',
    orgLimit: 'hookTest',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['access_key', 'delivery', 'hook', 'org_limit'],
    summary: 'Send a Ping event to a webhook (through the delivery, signed and logged); Meta names its delivery_id and event_id',
    description: 'Sends a Ping event to the webhook through the delivery (signed, logged, retried like any event; no cooldown).',
    success: 'Ping queued; Meta names its delivery_id and event_id',
    statuses: { 404: noSuchHook },
    result: pingAnswerSchema,
  }))();

export const hooksRoutes = /* @__PURE__ */ (() =>
  routeGroup('hooks', {
    hooksCreate,
    hooksList,
    hooksGet,
    hooksUpdate,
    hooksDelete,
    hooksSigningSecret,
    hooksDeliveries,
    hooksRedeliver,
    hooksTest,
  }))() satisfies Record<string, RouteDef>;
