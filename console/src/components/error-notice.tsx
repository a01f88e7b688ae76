/**
 * A refusal or failure in the user's words (ServiceError.summary), with the service's own message
 * when it says more, the field problems no field on the page shows, and what to do next: a 412
 * offers to reload the object, a 429 says when to try again (Retry-After).
 */
import type { ServiceError } from '../api/errors';

export function ErrorNotice(props: { error: ServiceError | undefined; onReload?: () => void; shownFields?: string[] }) {
  const { error } = props;
  if (!error) return null;
  const shown = new Set(props.shownFields ?? []);
  const other = error.issues.filter((i) => !shown.has(i.path.replace(/^(body|query|params|headers)\.?/, '')));
  const detail = error.detail && error.detail !== error.summary && error.status !== 0 ? error.detail : undefined;
  return (
    <div class="notice error" role="alert">
      <p>
        <strong>{error.summary}</strong>
        {detail && <> {detail}</>}
      </p>
      {other.length > 0 && (
        <ul>
          {other.map((i) => (
            <li key={i.path}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
      {error.status === 412 && props.onReload && (
        <p>
          <button type="button" onClick={props.onReload}>
            Reload the current version
          </button>{' '}
          (your unsaved changes are discarded)
        </p>
      )}
    </div>
  );
}
