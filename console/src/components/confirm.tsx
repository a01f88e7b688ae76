/**
 * A button that asks first, in a modal <dialog> (the browser keeps the focus inside it and Escape
 * cancels); the dialog shows the refusal when the action fails, and closes when it succeeds.
 */
import type { ComponentChildren } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';
import { asServiceError, type ServiceError } from '../api/errors';
import { ErrorNotice } from './error-notice';

export function ConfirmButton(props: {
  label: string;
  /** A fuller name for assistive technology when several buttons share a label (one per row). */
  name?: string;
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  danger?: boolean;
  small?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServiceError>();
  const open = () => {
    setError(undefined);
    dialog.current?.showModal();
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
      dialog.current?.close();
    } catch (e) {
      setError(asServiceError(e));
    } finally {
      setBusy(false);
    }
  };
  const kind = `${props.danger ? 'danger' : ''}${props.small ? ' small' : ''}`.trim();
  return (
    <>
      <button type="button" class={kind || undefined} aria-label={props.name} onClick={open}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-message`}>
        <h2 id={`${id}-title`}>{props.title}</h2>
        <div id={`${id}-message`}>{props.message}</div>
        <ErrorNotice error={error} />
        <div class="actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" class={props.danger ? 'danger' : 'primary'} disabled={busy} onClick={() => void confirm()}>
            {busy ? 'Working…' : props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
