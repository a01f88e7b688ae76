/**
 * The scaffold of every list page: the page with its create action, the message a previous page
 * left (flash), what went wrong, loading, the empty state, a table of rows and the pager. A list
 * page says only what its rows are and how each column shows one.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { ErrorNotice } from './error-notice';
import { takeFlash } from './flash';
import { Loading, Page, Status } from './page';
import { Pager } from './pager';
import type { Resource } from './use-resource';

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  class?: string;
}

/** The page number of the address (`p`, 1 when absent), the router, and the flash message to show. */
export function useListPage() {
  const { query, route } = useLocation();
  const page = Math.max(1, Number(query.p) || 1);
  const [message, setMessage] = useState(takeFlash);
  return { query, route, page, message, setMessage };
}

export function ListPage<D, T>(props: {
  title: string;
  /** The create link, when the caller may write. */
  create?: { href: string; label: string } | false;
  message?: string;
  list: Resource<D>;
  rows: (data: D) => T[];
  pages: (data: D) => number;
  rowKey: (row: T) => string;
  /** Columns; `false` leaves one out (a column only writers see). */
  columns: Array<Column<T> | false>;
  /** Of the organisation: "APIs" makes the caption "APIs of your organisation". */
  noun: string;
  /** The table's caption when it is not of the organisation (the admin side's). */
  caption?: string;
  empty: string;
  /** The pager's name: "Policy pages". */
  pagerLabel: string;
  page: number;
  onPage: (page: number) => void;
  /** Above the list (a search form), and above the table once data is in (how many matched). */
  controls?: ComponentChildren;
  summary?: (data: D) => ComponentChildren;
}) {
  const { list } = props;
  const columns = props.columns.filter((c): c is Column<T> => c !== false);
  const rows = list.data && props.rows(list.data);
  return (
    <Page
      title={props.title}
      actions={
        props.create && (
          <a class="button primary" href={props.create.href}>
            {props.create.label}
          </a>
        )
      }
    >
      {props.message && <Status>{props.message}</Status>}
      {props.controls}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && rows && (
        <>
          {props.summary?.(list.data)}
          {rows.length === 0 ? (
            <p>{props.empty}</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">{props.caption ?? `${props.noun} of your organisation`}</caption>
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th key={c.header} scope="col">
                        {c.header}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={props.rowKey(row)}>
                      {columns.map((c) => (
                        <td key={c.header} class={c.class}>
                          {c.cell(row)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager label={props.pagerLabel} page={props.page} pages={props.pages(list.data)} onPage={props.onPage} />
        </>
      )}
    </Page>
  );
}
