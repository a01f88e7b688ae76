/**
 * Access rights picked from the organisation's APIs (decisions §6: a map keyed by API id), for keys
 * and policies alike.
 */
import { api, get } from '../api/client';
import type { ServiceError } from '../api/errors';
import { ErrorNotice } from '../components/error-notice';
import { useResource } from '../components/use-resource';
import { apiIdOf, apiNameOf } from './apis/api-fields';

export type AccessRights = Record<string, { api_id: string; api_name: string; versions: string[] }>;

export function accessRightsOf(selected: string[], names: Map<string, string>): AccessRights {
  return Object.fromEntries(selected.map((id) => [id, { api_id: id, api_name: names.get(id) ?? id, versions: ['Default'] }]));
}

export function useApiNames() {
  return useResource(async () => {
    const all = await get(api.GET('/api/apis', { params: { query: { p: -1, sort: 'name' } } }));
    return new Map(all.apis.map((e) => [apiIdOf(e), apiNameOf(e)]));
  }, []);
}

export function AccessPicker(props: { legend: string; selected: string[]; onChange: (ids: string[]) => void; names: ReturnType<typeof useApiNames>; error?: ServiceError | undefined; field: string }) {
  const { names } = props;
  const message = props.error?.fieldError(props.field);
  const set = (id: string, on: boolean) => props.onChange(on ? [...props.selected, id] : props.selected.filter((x) => x !== id));
  return (
    <fieldset class={message ? 'invalid' : undefined} aria-describedby={message ? `${props.field}-error` : undefined}>
      <legend>{props.legend}</legend>
      <ErrorNotice error={names.error} />
      {names.data && names.data.size === 0 && <p>Your organisation has no APIs yet.</p>}
      <div class="choices">
        {[...(names.data ?? new Map<string, string>())].map(([id, name]) => (
          <label key={id} class="check">
            <input type="checkbox" checked={props.selected.includes(id)} onChange={(e) => set(id, e.currentTarget.checked)} /> {name} <code class="muted">{id}</code>
          </label>
        ))}
      </div>
      {message && (
        <p class="field-error" id={`${props.field}-error`}>
          {message}
        </p>
      )}
    </fieldset>
  );
}
