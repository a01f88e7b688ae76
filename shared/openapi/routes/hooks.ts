import type { hooksRoutes } from '../../route-groups/hooks';
import type { GroupDocs } from '../route-doc';
import { DENIED_HEADER_NAMES, HEADER_LIMITS } from '../../schemas/webhook-headers';

const target =
  'target_path must not name localhost (or a name under it), metadata.google.internal, or a literal address outside public ' +
  'unicast (loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved; IPv4 in any spelling).';
/** A pattern matching `text` in any case (JSON Schema patterns have no case-insensitive flag). */
const anyCase = (text: string) => text.replace(/[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);
const deniedNames = DENIED_HEADER_NAMES.filter((n) => !n.endsWith('*')).map(anyCase);
const deniedPrefixes = DENIED_HEADER_NAMES.filter((n) => n.endsWith('*')).map((n) => anyCase(n.slice(0, -1)));
/**
 * What JSON Schema can say of target_path (an absolute http(s) URL with a host) and of header_map
 * (the header count and the names the delivery owns, in any case). Names equal but for case and
 * the total size stay in the description.
 */
const bodyRule = {
  properties: {
    target_path: { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+' },
    header_map: {
      maxProperties: HEADER_LIMITS.count,
      propertyNames: { not: { pattern: `^(?:(?:${deniedNames.join('|')})$|${deniedPrefixes.join('|')})` } },
    },
  },
};
const signature = 'X-Gw-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">; receivers refuse a t more than 300 s from their clock; contract §11';
const headers =
  'header_map: at most 50 headers and 16,384 characters of names and values together; names unique ignoring case. Values are ' +
  'write-only: reads show each as ******** and a value of ******** keeps the one stored under that name (400 when there is none), ' +
  'so a read can be sent back without the secrets it hides.';

export const hooksDocs: GroupDocs<typeof hooksRoutes> = {
  hooksCreate: {
    description: `${target} ${headers} The answer carries the hook's signing secret (signing_secret) this once; deliveries are signed with it (${signature}).`,
    success: 'Webhook created; Meta is its id, signing_secret its signing secret (shown this once)',
    etag: true,
    bodyRule,
    answers: { 409: 'The organisation has 100 webhooks, the most it may have (exact under concurrent creates); delete one first' },
  },
  hooksList: { description: "Webhooks of the caller's organisation in creation order, paged (contract §5).", success: 'A page of webhooks' },
  hooksGet: { description: "A webhook of the caller's organisation.", success: 'The webhook', etag: true, answers: { 404: 'No such webhook' } },
  hooksUpdate: {
    description: `Replaces the whole webhook: omitted members are emptied. ${target} ${headers}`,
    success: 'Webhook updated; Meta is its id',
    etag: true,
    bodyRule,
    answers: { 404: 'No such webhook' },
  },
  hooksDelete: { description: "A webhook of the caller's organisation.", success: 'Webhook deleted; Meta is its id', answers: { 404: 'No such webhook' } },
  hooksSigningSecret: {
    description:
      `A new signing secret signs every delivery from now on (${signature}). For HOOK_SECRET_ROTATION_SECONDS (default 24 h) deliveries also carry ` +
      'a second v1= made with the replaced secret (t=...,v1=<new>,v1=<old>), so a receiver accepts either while it switches; after that only the new one signs.',
    success: 'Signing secret rotated; Meta is the hook id, signing_secret the new secret (shown this once)',
    answers: { 404: 'No such webhook' },
  },
  hooksDeliveries: {
    description:
      'The delivery log of a webhook, newest first, paged (contract §5): one entry per event delivered to it, with its status (pending, delivered, failed), ' +
      'attempts, last response code, duration, next attempt time and error class (refused_target, connection_failed, tls_error, timeout, http_error, ' +
      'hook_deleted, refused_headers, secret_unavailable: never an address, DNS answer or system error). Entries expire 30 days after their event.',
    success: 'A page of deliveries',
    answers: { 404: 'No such webhook' },
  },
  hooksRedeliver: {
    description: 'Queues one more attempt of a delivery, due now, whatever its status; the attempt is logged like the others.',
    success: 'Delivery queued; Meta is the delivery id',
    answers: { 404: 'No such webhook or delivery' },
  },
  hooksTest: {
    description: 'Sends a Ping event to the webhook through the delivery (signed, logged, retried like any event; no cooldown).',
    success: 'Ping queued; Meta names its delivery_id and event_id',
    answers: { 404: 'No such webhook' },
  },
};
