/**
 * Which webhooks an API's event handlers name (contract §11), read from the classic form every
 * stored API has (an OAS API's `server.eventHandlers[]` is converted into it): entries of
 * `event_handlers.events.<Event>[]` whose `handler_name` is `eh_web_hook_handler`. A handler names
 * a hook by `handler_meta.webhook_id` (classic) or `handler_meta.id` (the OAS `id`), or carries an
 * inline `target_path`, `method` and `header_map` (read, but not delivered to: docs/using/events-and-webhooks.md).
 * Pure: the services check that named hooks exist and the delivery reads them.
 */
import type { ErrorDetail } from '../errors';
import { WEBHOOK_LIMITS } from '../limits';
import type { HOOK_METHODS } from '../schemas/hooks';
import { isPlainObject } from '../lib/plain-object';

type Obj = Record<string, unknown>;

const WEBHOOK_HANDLER = 'eh_web_hook_handler';

/** Seconds between two deliveries of one event for one key to one hook, unless a handler or hook says otherwise. */
export const DEFAULT_EVENT_TIMEOUT = 60;

interface InlineTarget {
  method: (typeof HOOK_METHODS)[number];
  target_path: string;
  header_map: Record<string, string>;
}

interface WebhookHandler {
  trigger: string;
  /** The hook it names, or undefined for an inline target. */
  hookId?: string;
  inline?: InlineTarget;
  /** From the handler's meta; undefined: the hook's own, else the default. */
  eventTimeout?: number;
  name?: string;
  enabled: boolean;
  /** Where it sits in the classic form, for error paths. */
  path: string;
}

const asObj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Every webhook handler of a classic definition, enabled or not, in definition order. */
function webhookHandlersOf(classic: unknown): WebhookHandler[] {
  const events = asObj(asObj(asObj(classic).event_handlers).events);
  const out: WebhookHandler[] = [];
  for (const [trigger, list] of Object.entries(events)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      const e = asObj(entry);
      if (e.handler_name !== WEBHOOK_HANDLER) return;
      const meta = asObj(e.handler_meta);
      const hookId = str(meta.webhook_id) ?? str(meta.id);
      const timeout = meta.event_timeout;
      const handler: WebhookHandler = {
        trigger,
        enabled: meta.disabled !== true,
        path: `event_handlers.events.${trigger}[${i}].handler_meta`,
        ...(hookId ? { hookId } : {}),
        ...(typeof timeout === 'number' && Number.isInteger(timeout) && timeout >= 0 ? { eventTimeout: timeout } : {}),
        ...(str(meta.name) ? { name: str(meta.name) } : {}),
      };
      if (!hookId) {
        handler.inline = {
          method: (typeof meta.method === 'string' ? meta.method.toUpperCase() : 'POST') as InlineTarget['method'],
          target_path: typeof meta.target_path === 'string' ? meta.target_path : '',
          header_map: Object.fromEntries(Object.entries(asObj(meta.header_map)).map(([k, v]) => [k, String(v)])),
        };
      }
      out.push(handler);
    });
  }
  return out;
}

/** A hook one event of an API reaches, with the cooldown of the first handler naming it. */
export interface EventRoute {
  hookId: string;
  eventTimeout?: number;
}

/**
 * The distinct hooks the enabled handlers of a definition name for one event, in definition
 * order: a hook named twice is delivered to once. At most `WEBHOOK_LIMITS.hooksPerEvent`, so a
 * definition stored before that limit existed reaches its first ones only.
 */
export function routesFor(classic: unknown, event: string): EventRoute[] {
  const routes = new Map<string, EventRoute>();
  for (const h of webhookHandlersOf(classic)) {
    if (!h.enabled || h.trigger !== event || !h.hookId || routes.has(h.hookId)) continue;
    if (routes.size === WEBHOOK_LIMITS.hooksPerEvent) break;
    routes.set(h.hookId, { hookId: h.hookId, ...(h.eventTimeout !== undefined ? { eventTimeout: h.eventTimeout } : {}) });
  }
  return [...routes.values()];
}

/**
 * What a definition's webhook handlers break of the fan-out limits (contract §11), checked on
 * every write of a definition: at most `handlersPerApi` webhook handlers in all, and at most
 * `hooksPerEvent` distinct hooks named for one event (enabled or not: enabling one is a write too).
 */
export function handlerLimitProblems(classic: unknown): ErrorDetail[] {
  const handlers = webhookHandlersOf(classic);
  const problems: ErrorDetail[] = [];
  if (handlers.length > WEBHOOK_LIMITS.handlersPerApi) {
    problems.push({
      path: 'event_handlers',
      message: `at most ${WEBHOOK_LIMITS.handlersPerApi} webhook event handlers per API definition (${handlers.length} given)`,
    });
  }
  const hooksByEvent = new Map<string, Set<string>>();
  for (const h of handlers) if (h.hookId) hooksByEvent.set(h.trigger, (hooksByEvent.get(h.trigger) ?? new Set()).add(h.hookId));
  for (const [event, hooks] of hooksByEvent) {
    if (hooks.size > WEBHOOK_LIMITS.hooksPerEvent) {
      problems.push({
        path: `event_handlers.events.${event}`,
        message: `one event may reach at most ${WEBHOOK_LIMITS.hooksPerEvent} distinct webhooks (${hooks.size} named)`,
      });
    }
  }
  return problems;
}

/** The distinct hook ids a definition's webhook handlers name (enabled or not: all must exist). */
export function hookIdsOf(classic: unknown): string[] {
  return [...new Set(webhookHandlersOf(classic).flatMap((h) => (h.hookId ? [h.hookId] : [])))];
}

/**
 * `hook_references` of the dashboard's API listing entry: one per webhook handler that names a
 * hook, as the reference dashboard lists them (`event_name`, `event_timeout`, `hook`).
 */
export function hookReferencesOf(classic: unknown): Array<{ event_name: string; event_timeout: number; hook: { id: string; name: string } }> {
  return webhookHandlersOf(classic)
    .filter((h) => h.hookId)
    .map((h) => ({ event_name: h.trigger, event_timeout: h.eventTimeout ?? DEFAULT_EVENT_TIMEOUT, hook: { id: h.hookId!, name: h.name ?? '' } }));
}
