/**
 * One organisation's offboarding (GET /admin/organisations/{orgID}/offboarding): its state, the
 * step under way, and what it deleted so far by kind, read again every second until it is done.
 */
import { useEffect } from 'preact/hooks';
import { api, get } from '../api/client';
import type { Answer } from '../api/paths';
import { ErrorNotice } from '../components/error-notice';
import { Loading, Page } from '../components/page';
import { useResource } from '../components/use-resource';
import { dateTime } from '../format';

type Run = Answer<'/admin/organisations/{orgID}/offboarding', 'get'>['Meta'];

const STATE: Record<Run['state'], string> = {
  fencing: 'Starting: every process is learning that the organisation is offboarding',
  deleting: 'Deleting',
  done: 'Done: nothing of the organisation is stored but this record',
};

export function Offboarding(props: { orgId: string; onUnauthorized: () => void }) {
  const run = useResource(
    async () => ((await get(api.GET('/admin/organisations/{orgID}/offboarding', { params: { path: { orgID: props.orgId } } }))) as { Meta: Run }).Meta,
    [props.orgId],
  );
  const r = run.data;
  useEffect(() => {
    if (run.error?.status === 401) props.onUnauthorized();
  }, [run.error]);
  // Read again while it runs; a finished run no longer changes.
  useEffect(() => {
    if (!r || r.state === 'done') return;
    const timer = setTimeout(run.reload, 1000);
    return () => clearTimeout(timer);
  }, [r]);
  return (
    <Page title={`Offboarding ${props.orgId}`}>
      <ErrorNotice error={run.error?.status === 401 ? undefined : run.error} />
      {run.loading && !r && <Loading />}
      {r && (
        <>
          <p role="status">
            {STATE[r.state]}
            {r.state === 'deleting' && r.step ? `: step ${r.steps_done + 1} of 10 (${r.step})` : ''}. {r.deleted_total} items deleted.
          </p>
          <progress max={10} value={r.steps_done} aria-label="Steps done" />
          <dl class="facts">
            <dt>Started</dt>
            <dd>{dateTime(r.started_at)}</dd>
            <dt>Deleting from</dt>
            <dd>{dateTime(r.deleting_from)}</dd>
            <dt>Finished</dt>
            <dd>{r.finished_at ? dateTime(r.finished_at) : '–'}</dd>
          </dl>
          <div class="table-wrap">
            <table>
              <caption>Deleted so far, by kind</caption>
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Items</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(r.deleted).map(([kind, n]) => (
                  <tr key={kind}>
                    <td>{kind}</td>
                    <td>{n}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Page>
  );
}
