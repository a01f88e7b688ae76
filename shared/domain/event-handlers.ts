/**
 * Which webhooks an API's event handlers name (contract §11), read from the classic form every
 * stored API has (an OAS API's `server.eventHandlers[]` is converted into it): entries of
 * `event_handlers.events.<Event>[]` whose `handler_name` is `eh_web_hook_handler`. A handler names
 * a hook by `handler_meta.webhook_id` (classic) or `handler_meta.id` (the OAS `id`), or carries an
 * inline `target_path`, `method` and `header_map`. Pure: the services check that named hooks
 * exist and the delivery reads them.
 */
import { headerMapProblems } from '../schemas/webhook-headers';
import { HOOK_METHODS } from '../schemas/hooks';
import { targetRefusal } from '../schemas/webhook-target';
import { isPlainObject } from './template-merge';

type Obj = Record<string, unknown>;

export const WEBHOOK_HANDLER = 'eh_web_hook_handler';

/** Seconds between two deliveries of one event for one key to one hook, unless a handler or hook says otherwise. */
export const DEFAULT_EVENT_TIMEOUT = 60;

/** Distinct hooks one definition may name (each is read when the definition is written). */
export const MAX_HOOK_REFERENCES = 100;

export interface InlineTarget {
  method: (typeof HOOK_METHODS)[number];
  target_path: string;
  header_map: Record<string, string>;
}

export interface WebhookHandler {
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
export function webhookHandlersOf(classic: unknown): WebhookHandler[] {
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

/** The enabled webhook handlers of a definition for one event. */
export function handlersFor(classic: unknown, event: string): WebhookHandler[] {
  return webhookHandlersOf(classic).filter((h) => h.enabled && h.trigger === event);
}

export interface HandlerProblem {
  path: string;
  message: string;
}

/**
 * What is wrong with a definition's webhook handlers as written (400): an inline target must pass
 * the rules of a hook (method, target, headers), and a definition names at most
 * MAX_HOOK_REFERENCES hooks. Hook ids are checked against the table by the service (422).
 */
export function handlerProblems(classic: unknown): HandlerProblem[] {
  const problems: HandlerProblem[] = [];
  const handlers = webhookHandlersOf(classic);
  for (const h of handlers) {
    if (!h.inline) continue;
    if (!(HOOK_METHODS as readonly string[]).includes(h.inline.method)) {
      problems.push({ path: `${h.path}.method`, message: `must be one of ${HOOK_METHODS.join(', ')}` });
    }
    const why = targetRefusal(h.inline.target_path);
    if (why) problems.push({ path: `${h.path}.target_path`, message: why });
    for (const p of headerMapProblems(h.inline.header_map)) {
      problems.push({ path: p.name === undefined ? `${h.path}.header_map` : `${h.path}.header_map.${p.name}`, message: p.message });
    }
  }
  const ids = hookIdsOf(classic);
  if (ids.length > MAX_HOOK_REFERENCES) {
    problems.push({ path: 'event_handlers.events', message: `names ${ids.length} webhooks; at most ${MAX_HOOK_REFERENCES}` });
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
