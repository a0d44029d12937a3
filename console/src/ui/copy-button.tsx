import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

/** Copies a secret to the clipboard and says so. */
export function CopyButton({ text }: { text: string }): JSX.Element {
  const [copied, setCopied] = useState<'' | 'yes' | 'no'>('');
  const copy = (): void => {
    navigator.clipboard.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  };
  return (
    <p>
      <button type="button" class="btn btn-secondary" onClick={copy}>
        Copy
      </button>{' '}
      <span role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'The browser refused the clipboard: select the text and copy it.' : ''}
      </span>
    </p>
  );
}
