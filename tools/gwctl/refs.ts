/**
 * References that the service spells as generated ids and files spell as names: the webhook ids of
 * event handlers (OAS `server.eventHandlers[].id` of type webhook; classic
 * `event_handlers.events.<Event>[].handler_meta.webhook_id` or `.id`), in API definitions and in
 * templates' `x-gw-api-gateway`. Plus the `${env:NAME}` references of write-only values.
 */
import { ENV_REF, isObject, type Json, type JsonObject } from './model';

/** Calls `map` on each hook id a definition or template names, in place. */
export function mapHookIds(spec: JsonObject, map: (id: string) => string): void {
  const gw = spec['x-gw-api-gateway'];
  const handlers = isObject(gw) && isObject(gw.server) ? gw.server.eventHandlers : undefined;
  if (Array.isArray(handlers)) {
    for (const h of handlers) if (isObject(h) && h.type === 'webhook' && typeof h.id === 'string') h.id = map(h.id);
  }
  const events = isObject(spec.event_handlers) ? spec.event_handlers.events : undefined;
  if (isObject(events)) {
    for (const list of Object.values(events)) {
      if (!Array.isArray(list)) continue;
      for (const h of list) {
        if (!isObject(h) || h.handler_name !== 'eh_web_hook_handler' || !isObject(h.handler_meta)) continue;
        for (const k of ['webhook_id', 'id']) if (typeof h.handler_meta[k] === 'string') h.handler_meta[k] = map(h.handler_meta[k]);
      }
    }
  }
}

/** The hook ids (or references) a spec names, with where. */
export function hookIdsOf(spec: JsonObject): Array<{ id: string; path: string }> {
  const found: Array<{ id: string; path: string }> = [];
  // The same two shapes as mapHookIds, with paths.
  const gw = spec['x-gw-api-gateway'];
  const handlers = isObject(gw) && isObject(gw.server) ? gw.server.eventHandlers : undefined;
  if (Array.isArray(handlers)) {
    handlers.forEach((h, i) => {
      if (isObject(h) && h.type === 'webhook' && typeof h.id === 'string') found.push({ id: h.id, path: `x-gw-api-gateway.server.eventHandlers[${i}].id` });
    });
  }
  const events = isObject(spec.event_handlers) ? spec.event_handlers.events : undefined;
  if (isObject(events)) {
    for (const [event, list] of Object.entries(events)) {
      if (!Array.isArray(list)) continue;
      list.forEach((h, i) => {
        if (!isObject(h) || h.handler_name !== 'eh_web_hook_handler' || !isObject(h.handler_meta)) return;
        for (const k of ['webhook_id', 'id']) {
          const v = h.handler_meta[k];
          if (typeof v === 'string') found.push({ id: v, path: `event_handlers.events.${event}[${i}].handler_meta.${k}` });
        }
      });
    }
  }
  return found;
}

/** Every `${env:NAME}` a value holds, with the path of the string holding it. */
export function envRefsOf(v: Json, path = ''): Array<{ name: string; path: string }> {
  if (typeof v === 'string') return [...v.matchAll(ENV_REF)].map((m) => ({ name: m[1]!, path }));
  if (Array.isArray(v)) return v.flatMap((x, i) => envRefsOf(x, `${path}[${i}]`));
  if (isObject(v)) return Object.entries(v).flatMap(([k, x]) => envRefsOf(x, path ? `${path}.${k}` : k));
  return [];
}

/** The value with every `${env:NAME}` replaced from `env`; a name that is not set is an error listing all of them. */
export function resolveEnv<T extends Json>(v: T, env: NodeJS.ProcessEnv, missing: Set<string>): T {
  if (typeof v === 'string') {
    return v.replace(ENV_REF, (_, name: string) => {
      const value = env[name];
      if (value === undefined) missing.add(name);
      return value ?? '';
    }) as T;
  }
  if (Array.isArray(v)) return v.map((x) => resolveEnv(x, env, missing)) as T;
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveEnv(x, env, missing)])) as T;
  return v;
}
