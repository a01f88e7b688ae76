/**
 * A labelled form control with its hint and the service's message for it (by field name), tied
 * together for assistive technology: the label names the control, aria-describedby reads the hint
 * and the error, aria-invalid marks it.
 */
import type { ComponentChildren } from 'preact';
import type { ServiceError } from '../api/errors';

export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
}

let counter = 0;
const ids = new Map<string, string>();
/** A stable id per form and field name. */
const idFor = (form: string, name: string) => {
  const k = `${form}:${name}`;
  if (!ids.has(k)) ids.set(k, `f${++counter}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`);
  return ids.get(k)!;
};

export function Field(props: {
  form: string;
  name: string;
  label: string;
  hint?: ComponentChildren;
  error?: ServiceError | undefined;
  children: (control: ControlProps) => ComponentChildren;
}) {
  const id = idFor(props.form, props.name);
  const message = props.error?.fieldError(props.name);
  const described = [props.hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${message ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children({ id, name: props.name, ...(message ? { 'aria-invalid': 'true' as const } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
      {message && (
        <p class="field-error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label after it. */
export function Check(props: { label: string; checked: boolean; onChange: (v: boolean) => void; name?: string; hint?: string }) {
  return (
    <label class="check">
      <input type="checkbox" name={props.name} checked={props.checked} onChange={(e) => props.onChange(e.currentTarget.checked)} />
      <span>
        {props.label}
        {props.hint && <span class="muted"> — {props.hint}</span>}
      </span>
    </label>
  );
}
