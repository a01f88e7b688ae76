/** A list's search: a labelled field, Search, and Clear while a search is on. */
import { useState } from 'preact/hooks';

export function SearchForm(props: { id: string; label: string; placeholder: string; search: string; onSearch: (q: string) => void }) {
  const [draft, setDraft] = useState(props.search);
  return (
    <form
      role="search"
      class="search"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(draft.trim());
      }}
    >
      <label for={props.id}>{props.label}</label>
      <input id={props.id} type="search" value={draft} placeholder={props.placeholder} onInput={(e) => setDraft(e.currentTarget.value)} />
      <button type="submit">Search</button>
      {props.search && (
        <button type="button" onClick={() => (setDraft(''), props.onSearch(''))}>
          Clear
        </button>
      )}
    </form>
  );
}
