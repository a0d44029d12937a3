import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import { keyCapabilities, type Capabilities } from '../api/capabilities.js';
import { Field, Busy } from '../ui/form.js';
import { ErrorNote } from '../ui/feedback.js';

/** Asks for an API key and checks it against the API before keeping it. */
export function SignInPage({ onSignedIn }: { onSignedIn: (key: string, caps: Capabilities) => void }): JSX.Element {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const key = (new FormData(e.currentTarget as HTMLFormElement).get('ApiKey') as string).trim();
    setBusy(true);
    setError(undefined);
    try {
      if (key === '')
        throw new ApiError(400, 'NotEmpty', "'API key' must not be empty.", [
          { ErrorCode: 'NotEmpty', FieldName: 'ApiKey', Message: "'API key' must not be empty." },
        ]);
      onSignedIn(key, await keyCapabilities(key));
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? new ApiError(401, err.code, err.message, [{ ErrorCode: err.code, FieldName: 'ApiKey', Message: err.message }])
          : err,
      );
      setBusy(false);
    }
  };
  return (
    <main class="sign-in" id="main">
      <h1>ordergate console</h1>
      <form onSubmit={(e) => void submit(e)} class="card" noValidate>
        <ErrorNote error={error} shownFields={['ApiKey']} />
        <Field label="API key" field="ApiKey" error={error} hint="Kept in this tab only; closing it signs you out.">
          {(p) => <input {...p} type="password" autoComplete="off" spellcheck={false} required />}
        </Field>
        <Busy busy={busy} label="Sign in" />
      </form>
    </main>
  );
}
