/** Rate and quota fields, shared by keys and policies: whole numbers, empty when not set. */
import type { ServiceError } from '../api/errors';
import { Field } from '../components/field';

export type Limits = Record<'rate' | 'per' | 'quota_max' | 'quota_renewal_rate', string>;
export const NO_LIMITS: Limits = { rate: '', per: '', quota_max: '', quota_renewal_rate: '' };

const FIELDS: Array<{ name: keyof Limits; label: string; hint: string }> = [
  { name: 'rate', label: 'Rate', hint: 'Requests allowed per period (empty: no rate limit).' },
  { name: 'per', label: 'Per (seconds)', hint: 'The rate’s period.' },
  { name: 'quota_max', label: 'Quota', hint: 'Requests allowed per quota window; -1 or empty: unlimited.' },
  { name: 'quota_renewal_rate', label: 'Quota window (seconds)', hint: 'How often the quota renews, e.g. 3600 for hourly.' },
];

/** The numbers to send (an empty field is left out). */
export function limitsBody(l: Limits): Partial<Record<keyof Limits, number>> {
  return Object.fromEntries(Object.entries(l).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, Number(v)]));
}

export const limitsOf = (o: Partial<Record<keyof Limits, number | undefined>>): Limits =>
  Object.fromEntries(Object.keys(NO_LIMITS).map((k) => [k, o[k as keyof Limits] === undefined ? '' : String(o[k as keyof Limits])])) as Limits;

export function LimitsFields(props: { form: string; value: Limits; onChange: (l: Limits) => void; error?: ServiceError | undefined }) {
  return (
    <fieldset>
      <legend>Rate and quota</legend>
      <div class="grid">
        {FIELDS.map((f) => (
          <Field key={f.name} form={props.form} name={f.name} label={f.label} hint={f.hint} error={props.error}>
            {(c) => <input {...c} type="number" step={1} inputMode="numeric" value={props.value[f.name]} onInput={(e) => props.onChange({ ...props.value, [f.name]: e.currentTarget.value })} />}
          </Field>
        ))}
      </div>
    </fieldset>
  );
}
