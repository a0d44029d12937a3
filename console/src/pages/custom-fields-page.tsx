import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { del, get, put } from '../api/client.js';
import { FIELD_TYPES, type CustomFieldDefinition } from '../api/types.js';
import { useCapabilities } from '../capabilities-context.js';
import { ErrorNote, Show } from '../ui/feedback.js';
import { Busy, Field, formValues } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';

const FIELDS = ['Number', 'Label', 'FieldType', 'AllowedValues', 'Sort', 'IsReadOnly'];

/** The definition form: a new one, or the one being changed (its Number fixed). */
function DefinitionForm({
  editing,
  onSaved,
  onClose,
}: {
  editing: CustomFieldDefinition | undefined;
  onSaved: () => void;
  onClose: () => void;
}): JSX.Element {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [type, setType] = useState<string>(editing?.FieldType ?? 'Text');
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const v = formValues(form);
    const allowed = (v.AllowedValues ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const number = editing ? editing.Number : (v.Number ?? '').trim();
    setBusy(true);
    setError(undefined);
    try {
      await put(`/customfields/${encodeURIComponent(String(number))}`, {
        Label: v.Label ?? '',
        FieldType: v.FieldType,
        AllowedValues: allowed.length > 0 ? allowed : null,
        Sort: v.Sort ? Number(v.Sort) : 0,
        IsReadOnly: (form.elements.namedItem('IsReadOnly') as HTMLInputElement).checked,
      });
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="card"
      aria-label={editing ? `Change field ${editing.Number}` : 'Create field'}
      onSubmit={(e) => void submit(e)}
      noValidate
      key={editing?.Number ?? 'new'}
    >
      <ErrorNote error={error} shownFields={FIELDS} />
      <div class="grid">
        <Field label="Number" field="Number" error={error}>
          {(p) => <input {...p} type="number" min="1" defaultValue={editing ? String(editing.Number) : ''} disabled={Boolean(editing)} />}
        </Field>
        <Field label="Label" field="Label" error={error}>
          {(p) => <input {...p} defaultValue={editing?.Label ?? ''} />}
        </Field>
        <Field label="Type" field="FieldType" error={error}>
          {(p) => (
            <select {...p} value={type} onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value)}>
              {FIELD_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Allowed values" field="AllowedValues" error={error} hint="Select and MultiSelect: comma-separated">
          {(p) => <input {...p} defaultValue={editing?.AllowedValues?.join(', ') ?? ''} />}
        </Field>
        <Field label="Sort" field="Sort" error={error}>
          {(p) => <input {...p} type="number" defaultValue={String(editing?.Sort ?? 0)} />}
        </Field>
        <label class="check">
          <input type="checkbox" name="IsReadOnly" defaultChecked={editing?.IsReadOnly ?? false} /> Read-only (admin writes only)
        </label>
      </div>
      <Busy busy={busy} label={editing ? 'Save field' : 'Create field'} />{' '}
      <button type="button" class="btn btn-secondary" onClick={onClose}>
        Close
      </button>
    </form>
  );
}

/** Custom fields: the definitions, created, changed and deleted (changes need the permission admin). */
export function CustomFieldsPage(): JSX.Element {
  const caps = useCapabilities();
  const [loaded, reload] = useLoad(() => get<CustomFieldDefinition[]>('/customfields/'), []);
  const [form, setForm] = useState<'closed' | 'new' | CustomFieldDefinition>('closed');
  const [busy, setBusy] = useState(0);
  const [error, setError] = useState<unknown>(undefined);
  const remove = async (n: number): Promise<void> => {
    setBusy(n);
    setError(undefined);
    try {
      await del(`/customfields/${n}`);
      reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(0);
    }
  };
  return (
    <>
      <div class="page-head">
        <h1>Custom fields</h1>
        <div class="actions">
          {caps.admin && (
            <button type="button" class="btn btn-primary" onClick={() => setForm('new')}>
              New field
            </button>
          )}
        </div>
      </div>
      {form !== 'closed' && (
        <DefinitionForm
          editing={form === 'new' ? undefined : form}
          onClose={() => setForm('closed')}
          onSaved={() => {
            setForm('closed');
            reload();
          }}
        />
      )}
      <ErrorNote error={error} />
      <Show loaded={loaded}>
        {(defs) => (
          <table>
            <caption>Definitions, by Sort then Number</caption>
            <thead>
              <tr>
                <th scope="col" class="num">
                  Number
                </th>
                <th scope="col">Label</th>
                <th scope="col">Type</th>
                <th scope="col">Allowed values</th>
                <th scope="col" class="num">
                  Sort
                </th>
                <th scope="col">Read-only</th>
                {caps.admin && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {defs.map((d) => (
                <tr key={d.Number}>
                  <td class="num">{d.Number}</td>
                  <td>{d.Label}</td>
                  <td>{d.FieldType}</td>
                  <td>{d.AllowedValues?.join(', ') ?? '—'}</td>
                  <td class="num">{d.Sort}</td>
                  <td>{d.IsReadOnly ? 'Yes' : 'No'}</td>
                  {caps.admin && (
                    <td>
                      <button type="button" class="btn btn-secondary" aria-label={`Change ${d.Label}`} onClick={() => setForm(d)}>
                        Change
                      </button>{' '}
                      <Busy
                        type="button"
                        kind="danger"
                        busy={busy === d.Number}
                        label={`Delete ${d.Label}`}
                        onClick={() => void remove(d.Number)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </>
  );
}
