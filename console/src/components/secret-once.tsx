/** A secret the service shows once (a clear key, a signing secret): the value, a copy button and the warning. */
import { useId, useState } from 'preact/hooks';

export function SecretOnce(props: { title: string; value: string; what: string }) {
  const id = useId();
  const [copied, setCopied] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(props.value).then(
      () => setCopied('Copied to the clipboard.'),
      () => setCopied('The browser did not allow copying: select the value and copy it yourself.'),
    );
  return (
    <section class="secret" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{props.title}</h2>
      <p class="warning" id={`${id}-warning`}>
        <strong>Copy it now.</strong> This is the only time {props.what} is shown: the service does not keep it in a form it can show again.
      </p>
      <div class="secret-value">
        <code id={`${id}-value`} data-secret>
          {props.value}
        </code>
        <button type="button" onClick={() => void copy()} aria-describedby={`${id}-warning`}>
          Copy
        </button>
      </div>
      <p role="status" class="muted">
        {copied}
      </p>
    </section>
  );
}
