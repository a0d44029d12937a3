import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Busy } from './form.js';

/**
 * A form in a card that opens under a page's heading, named by the button that opened it: its first
 * input focused when it opens (a keyboard user starts typing there); `Close` or Escape closes it.
 */
export function ActionForm({
  name,
  busy,
  submitLabel,
  onSubmit,
  onClose,
  children,
}: {
  name: string;
  busy: boolean;
  submitLabel: string;
  onSubmit: () => void;
  onClose: () => void;
  children: ComponentChildren;
}): JSX.Element {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);
  return (
    <form
      ref={form}
      class="card action-form"
      aria-label={name}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <h2>{name}</h2>
      {children}
      <Busy busy={busy} label={submitLabel} />{' '}
      <button type="button" class="btn btn-secondary" onClick={onClose}>
        Close
      </button>
    </form>
  );
}
