/** Previous / next through the pages of a list (decisions §5: `p` is 1-based, `pages` the count). */
export function Pager(props: { page: number; pages: number; onPage: (p: number) => void; label: string }) {
  if (props.pages <= 1) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span>
        Page {props.page} of {props.pages}
      </span>
      <button type="button" disabled={props.page >= props.pages} onClick={() => props.onPage(props.page + 1)}>
        Next
      </button>
    </nav>
  );
}
