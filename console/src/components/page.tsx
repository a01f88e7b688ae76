/**
 * A page: its title in the document and an h1 that takes the focus when the page opens, so a
 * screen reader announces where a link led and the keyboard starts from the top of the content.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The site the document title names after the page: the console, or a portal's own title. */
let site = 'Gateway console';
export const setSiteName = (name: string): void => {
  site = name;
};

export function Page(props: { title: string; actions?: ComponentChildren; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · ${site}`;
  }, [props.title]);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="page" aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title" tabIndex={-1} ref={heading}>
          {props.title}
        </h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </div>
      {props.children}
    </section>
  );
}

/** A polite announcement (saved, queued, copied) that stays on the page. */
export function Status(props: { children?: ComponentChildren }) {
  return (
    <p class="status" role="status">
      {props.children}
    </p>
  );
}

export const Loading = () => <p class="muted" role="status">Loading…</p>;
