/**
 * The scaffold of every form that sends: while it is sent the button says so and cannot be pressed
 * twice, what went wrong before is cleared, and a refusal becomes the error the fields and the
 * notice show (`ErrorNotice`, `Field`). A form says only what it sends and what follows.
 */
import { useState } from 'preact/hooks';
import { asServiceError, type ServiceError } from '../api/errors';

export function useFormAction(send: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServiceError>();
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await send();
    } catch (err) {
      setError(asServiceError(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, onSubmit: (e: Event) => void onSubmit(e) };
}

/** The form's primary button: `busyLabel` while it is sent; `disabled` while the form cannot be sent. */
export function SubmitButton(props: { busy: boolean; label: string; busyLabel: string; disabled?: boolean }) {
  return (
    <button type="submit" class="primary" disabled={props.busy || props.disabled}>
      {props.busy ? props.busyLabel : props.label}
    </button>
  );
}
