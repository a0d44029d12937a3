import type { ComponentChildren, JSX } from 'preact';
import { ApiError } from '../api/client.js';
import type { Loaded } from './use-load.js';

/** What a page shows while it waits for the API. */
export const Loading = ({ what = 'Loading…' }: { what?: string }): JSX.Element => (
  <p class="loading" role="status" aria-live="polite">
    {what}
  </p>
);

export const messageOf = (error: unknown): string =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);

/**
 * An error of the API, as its ResponseStatus says it; messages of fields the form shows next to
 * their inputs (`shownFields`) are left to those inputs.
 */
export function ErrorNote({ error, shownFields = [] }: { error: unknown; shownFields?: readonly string[] }): JSX.Element | null {
  if (error === undefined || error === null) return null;
  const shown = new Set(shownFields.map((f) => f.toLowerCase()));
  const others = error instanceof ApiError ? error.errors.filter((e) => !shown.has(e.FieldName.toLowerCase())) : [];
  const allShown = error instanceof ApiError && error.errors.length > 0 && others.length === 0;
  return (
    <div class="error-note" role="alert">
      {allShown ? 'Please correct the fields marked below.' : messageOf(error)}
      {others.length > 1 && (
        <ul>
          {others.map((e) => (
            <li key={e.FieldName}>
              {e.FieldName}: {e.Message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Renders a Loaded: waiting, its error, or the data. */
export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }): JSX.Element {
  if (loaded.state === 'loading') return <Loading />;
  if (loaded.state === 'failed') return <ErrorNote error={loaded.error} />;
  return <>{children(loaded.data)}</>;
}

/** A notice that an action succeeded. */
export const Done = ({ children }: { children: ComponentChildren }): JSX.Element => (
  <p class="done-note" role="status">
    {children}
  </p>
);
