import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';
import { ApiError } from '../api/client.js';

/**
 * A labelled input with the API's message for its field under it. `field` is the wire name the
 * API's ResponseStatus uses for it.
 */
export function Field({
  label,
  field,
  error,
  hint,
  children,
}: {
  label: string;
  field?: string;
  error?: unknown;
  hint?: string;
  children: (props: { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string; name?: string }) => ComponentChildren;
}): JSX.Element {
  const id = useId();
  const message = field && error instanceof ApiError ? error.forField(field) : undefined;
  const described = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={message ? 'field field-invalid' : 'field'}>
      <label for={id}>{label}</label>
      {children({
        id,
        ...(field ? { name: field } : {}),
        ...(message ? { 'aria-invalid': 'true' as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {message && (
        <small id={`${id}-error`} class="field-error">
          {message}
        </small>
      )}
    </div>
  );
}

/** Reads a form's named inputs as strings. */
export const formValues = (form: HTMLFormElement): Record<string, string> => {
  const out: Record<string, string> = {};
  new FormData(form).forEach((v, k) => {
    if (typeof v === 'string') out[k] = v;
  });
  return out;
};

/** A button that is disabled and marked busy while its action runs (its name stays, for people and tests). */
export function Busy({
  busy,
  label,
  type = 'submit',
  kind = 'primary',
  onClick,
  disabled,
}: {
  busy: boolean;
  label: string;
  type?: 'submit' | 'button';
  kind?: 'primary' | 'secondary' | 'danger';
  onClick?: () => void;
  disabled?: boolean;
}): JSX.Element {
  return (
    <button type={type} class={`btn btn-${kind}`} disabled={busy || disabled} aria-busy={busy ? 'true' : undefined} onClick={onClick}>
      {label}
    </button>
  );
}
