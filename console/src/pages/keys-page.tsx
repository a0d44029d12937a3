import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { get, post } from '../api/client.js';
import { when } from '../format.js';
import { ErrorNote, Show } from '../ui/feedback.js';
import { Busy, Field, formValues } from '../ui/form.js';
import { CopyButton } from '../ui/copy-button.js';
import { useLoad } from '../ui/use-load.js';

interface ApiKey {
  readonly Id: string;
  readonly Name: string;
  readonly Permissions: readonly string[];
  readonly CreatedAt: string;
  readonly RevokedAt: string | null;
  readonly LastUsedAt: string | null;
}

const PERMISSIONS = ['all', 'admin', 'bank', 'fulfilment'];

/** API keys: list, Create key (the key shown once), Revoke. */
export function KeysPage(): JSX.Element {
  const [loaded, reload] = useLoad(() => get<ApiKey[]>('/keys'), []);
  const [busy, setBusy] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [created, setCreated] = useState<{ Name: string; Key: string } | undefined>(undefined);
  const create = async (e: Event): Promise<void> => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const v = formValues(form);
    const permissions = PERMISSIONS.filter((p) => (form.elements.namedItem(`perm-${p}`) as HTMLInputElement).checked);
    setBusy('create');
    setError(undefined);
    try {
      setCreated(await post<{ Name: string; Key: string }>('/keys', { Name: v.Name ?? '', Permissions: permissions }));
      form.reset();
      reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy('');
    }
  };
  const revoke = async (id: string): Promise<void> => {
    setBusy(id);
    setError(undefined);
    try {
      await post(`/keys/${encodeURIComponent(id)}/revoke`);
      reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy('');
    }
  };
  return (
    <>
      <div class="page-head">
        <h1>API keys</h1>
      </div>
      <form class="card" aria-label="Create key" onSubmit={(e) => void create(e)} noValidate>
        <ErrorNote error={error} shownFields={['Name', 'Permissions']} />
        <div class="grid">
          <Field label="Name" field="Name" error={error}>
            {(p) => <input {...p} />}
          </Field>
          <fieldset>
            <legend>Permissions</legend>
            {PERMISSIONS.map((p) => (
              <label key={p} class="check">
                <input type="checkbox" name={`perm-${p}`} defaultChecked={p === 'all'} /> {p}
              </label>
            ))}
          </fieldset>
        </div>
        <Busy busy={busy === 'create'} label="Create key" />
      </form>
      {created && (
        <div class="card" role="status">
          <p>
            The key <strong>{created.Name}</strong>, shown only now:
          </p>
          <p class="secret" aria-label="New key">
            {created.Key}
          </p>
          <CopyButton text={created.Key} />
        </div>
      )}
      <h2>Keys</h2>
      <Show loaded={loaded}>
        {(keys) => (
          <table>
            <caption>API keys</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Name</th>
                <th scope="col">Permissions</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Revoked</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.Id}>
                  <td class="mono">{k.Id}</td>
                  <td>{k.Name}</td>
                  <td>{k.Permissions.join(', ')}</td>
                  <td>{when(k.CreatedAt)}</td>
                  <td>{when(k.LastUsedAt)}</td>
                  <td>{k.RevokedAt ? when(k.RevokedAt) : '—'}</td>
                  <td>
                    {!k.RevokedAt && (
                      <Busy type="button" kind="secondary" busy={busy === k.Id} label="Revoke" onClick={() => void revoke(k.Id)} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </>
  );
}
