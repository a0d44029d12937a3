import type { JSX } from 'preact';

/**
 * Keyset paging: `next` continues after the last row shown (a cursor of the API), `first` goes
 * back to the start. No page numbers: counting or skipping rows costs the whole table at 10^6 rows.
 */
export function Pager({
  onFirst,
  onNext,
  atStart,
  hasNext,
  shown,
}: {
  onFirst: () => void;
  onNext: () => void;
  atStart: boolean;
  hasNext: boolean;
  shown: number;
}): JSX.Element {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="btn btn-secondary" onClick={onFirst} disabled={atStart}>
        First page
      </button>
      <button type="button" class="btn btn-secondary" onClick={onNext} disabled={!hasNext}>
        Next page
      </button>
      <span class="muted">{shown === 0 ? 'Nothing found' : `${shown} shown`}</span>
    </nav>
  );
}
