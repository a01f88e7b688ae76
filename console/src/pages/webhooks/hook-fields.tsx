/**
 * A webhook's fields, for creating and editing: name, method, target, cooldown and headers. Header
 * values are write-only: a read shows each as ******** and sending ******** back keeps the stored
 * value, so an edit that leaves a value alone never needs to know it.
 */
import type { ServiceError } from '../../api/errors';
import type { Answer, Body } from '../../api/paths';
import { Field } from '../../components/field';

export const MASK = '********';
const METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

export interface HookFormState {
  name: string;
  method: Method;
  target_path: string;
  event_timeout: string;
  headers: Array<{ name: string; value: string }>;
}

export const NEW_HOOK: HookFormState = { name: '', method: 'POST', target_path: '', event_timeout: '', headers: [] };

export const hookFormOf = (h: Answer<'/api/hooks/{hookID}', 'get'>): HookFormState => ({
  name: h.name,
  method: h.method,
  target_path: h.target_path,
  event_timeout: h.event_timeout === undefined ? '' : String(h.event_timeout),
  headers: Object.keys(h.header_map).map((name) => ({ name, value: MASK })),
});

export function hookBody(f: HookFormState): Body<'/api/hooks', 'post'> {
  return {
    name: f.name.trim(),
    method: f.method,
    target_path: f.target_path.trim(),
    header_map: Object.fromEntries(f.headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value])),
    ...(f.event_timeout.trim() ? { event_timeout: Number(f.event_timeout) } : {}),
  };
}

/** The field names these fields show errors for (the rest go to the notice above the form). */
export const hookFieldNames = (f: HookFormState): string[] => ['name', 'method', 'target_path', 'event_timeout', 'header_map', ...f.headers.map((h) => `header_map.${h.name.trim()}`)];

export function HookFields(props: { form: string; value: HookFormState; onChange: (v: HookFormState) => void; error?: ServiceError | undefined; editing: boolean }) {
  const { value: v, onChange, error, form } = props;
  const setHeader = (i: number, patch: Partial<{ name: string; value: string }>) => onChange({ ...v, headers: v.headers.map((h, j) => (j === i ? { ...h, ...patch } : h)) });
  const headersError = error?.fieldError('header_map');
  return (
    <>
      <Field form={form} name="name" label="Name" error={error}>
        {(c) => <input {...c} type="text" value={v.name} onInput={(e) => onChange({ ...v, name: e.currentTarget.value })} />}
      </Field>
      <Field form={form} name="method" label="Method" error={error}>
        {(c) => (
          <select {...c} value={v.method} onChange={(e) => onChange({ ...v, method: e.currentTarget.value as Method })}>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field form={form} name="target_path" label="Target URL" hint="An absolute http or https URL of a public host; deliveries are signed (X-Gw-Signature)." error={error}>
        {(c) => <input {...c} type="url" required value={v.target_path} onInput={(e) => onChange({ ...v, target_path: e.currentTarget.value })} />}
      </Field>
      <Field form={form} name="event_timeout" label="Cooldown (seconds)" hint="One delivery of an event per key within this time (empty: 60)." error={error}>
        {(c) => <input {...c} type="number" min={0} max={3600} step={1} value={v.event_timeout} onInput={(e) => onChange({ ...v, event_timeout: e.currentTarget.value })} />}
      </Field>
      <fieldset class={headersError ? 'invalid' : undefined}>
        <legend>Headers sent with each delivery</legend>
        {props.editing && v.headers.length > 0 && (
          <p class="hint">
            Values are write-only: <code>{MASK}</code> keeps the stored value; type a new one to replace it.
          </p>
        )}
        {v.headers.map((h, i) => {
          const message = h.name.trim() ? error?.fieldError(`header_map.${h.name.trim()}`) : undefined;
          return (
            <div class="header-row" key={i}>
              <label>
                <span>Header {i + 1} name</span>
                <input type="text" value={h.name} aria-invalid={message ? 'true' : undefined} onInput={(e) => setHeader(i, { name: e.currentTarget.value })} />
              </label>
              <label>
                <span>Header {i + 1} value</span>
                <input type="text" value={h.value} aria-invalid={message ? 'true' : undefined} onInput={(e) => setHeader(i, { value: e.currentTarget.value })} />
              </label>
              <button type="button" class="small" aria-label={`Remove header ${i + 1}`} onClick={() => onChange({ ...v, headers: v.headers.filter((_, j) => j !== i) })}>
                Remove
              </button>
              {message && <p class="field-error">{message}</p>}
            </div>
          );
        })}
        <button type="button" class="small" onClick={() => onChange({ ...v, headers: [...v.headers, { name: '', value: '' }] })}>
          Add a header
        </button>
        {headersError && <p class="field-error">{headersError}</p>}
      </fieldset>
    </>
  );
}
