import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { ApiError, call, get, post } from '../api/client.js';
import type { Customer, CustomField, Order } from '../api/types.js';
import { useCapabilities } from '../capabilities-context.js';
import type { PageProps } from '../pages.js';
import { CustomFieldInput, readValue } from '../ui/custom-field-input.js';
import { downloadJson } from '../ui/download.js';
import { Done, ErrorNote, Show } from '../ui/feedback.js';
import { CUSTOMER_GROUPS } from '../ui/field-labels.js';
import { Busy, Field } from '../ui/form.js';
import { OrderTable } from '../ui/order-table.js';
import { useLoad } from '../ui/use-load.js';
import { CustomerForm, customerPath as path } from './customer-form.js';

async function loadCustomer(id: string): Promise<Customer> {
  // Identifiers match external ids too: another customer's ExternalId may be this id.
  const customer = (await get<Customer[]>('/customer/', { Identifiers: [id] })).find((c) => c.CustomerId === id);
  if (!customer) throw new ApiError(404, 'NotFound', `No customer with the id ${id}`, []);
  return customer;
}

/** The custom fields of the customer, an input per field type; saved all at once (PATCH: all or nothing). */
function CustomFields({ id }: { id: string }): JSX.Element {
  const caps = useCapabilities();
  const [loaded, reload] = useLoad(() => get<CustomField[]>(`${path(id)}/customfields/`), [id]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState(false);
  if (loaded.state !== 'done') return <Show loaded={loaded}>{() => null}</Show>;
  const fields = loaded.data;
  if (fields.length === 0) return <p class="muted">No custom fields are defined.</p>;
  const writable = fields.filter((f) => caps.admin || !f.IsReadOnly);
  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const values = writable.map((f) => ({ Number: f.Number, Value: readValue(f, form, `cf-${f.Number}`) }));
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await call('PATCH', `${path(id)}/customfields/`, { body: { Values: values } });
      setSaved(true);
      reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fieldNames = writable.map((_, i) => `Values[${i}].Value`);
  return (
    <form onSubmit={(e) => void save(e)} aria-label="Custom fields" noValidate>
      <ErrorNote error={error} shownFields={fieldNames} />
      <div class="grid">
        {fields.map((f) => {
          const index = writable.indexOf(f);
          return (
            <Field
              key={f.Number}
              label={f.Label}
              field={index >= 0 ? `Values[${index}].Value` : undefined}
              error={error}
              hint={`${f.FieldType}${f.IsReadOnly ? ', read-only' : ''}`}
            >
              {(p) => <CustomFieldInput field={f} props={{ ...p, name: `cf-${f.Number}` }} disabled={index < 0} />}
            </Field>
          );
        })}
      </div>
      {writable.length > 0 && <Busy busy={busy} label="Save custom fields" />}
      {saved && <Done>Custom fields saved.</Done>}
    </form>
  );
}

/** Export data and Erase customer (permission admin); erasing asks for the CustomerId to be typed first. */
function Privacy({ id, onErased }: { id: string; onErased: () => void }): JSX.Element {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState<'' | 'export' | 'erase'>('');
  const [error, setError] = useState<unknown>(undefined);
  const [erased, setErased] = useState(false);
  const exportData = async (): Promise<void> => {
    setBusy('export');
    setError(undefined);
    try {
      downloadJson(`customer-${id}.json`, await get(`${path(id)}/export`));
    } catch (err) {
      setError(err);
    } finally {
      setBusy('');
    }
  };
  const erase = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy('erase');
    setError(undefined);
    try {
      await post(`${path(id)}/erase`);
      setErased(true);
      setTyped('');
      onErased();
    } catch (err) {
      setError(err);
    } finally {
      setBusy('');
    }
  };
  return (
    <>
      <ErrorNote error={error} />
      <p>
        <Busy type="button" kind="secondary" busy={busy === 'export'} label="Export data" onClick={() => void exportData()} />
      </p>
      <form class="card danger-zone" onSubmit={(e) => void erase(e)} aria-label="Erase customer">
        <p>Erasing removes this customer's personal data for good; accounting fields of the orders stay.</p>
        <Field label={`Type ${id} to confirm`}>
          {(p) => <input {...p} value={typed} onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)} autoComplete="off" />}
        </Field>
        <Busy kind="danger" busy={busy === 'erase'} disabled={typed !== id} label="Erase customer" />
        {erased && <Done>The customer was erased.</Done>}
      </form>
    </>
  );
}

/** A customer: the 14 fields (grouped, under human labels), custom fields, orders, and (admin) editing, export and erasure. */
export function CustomerPage({ route }: PageProps): JSX.Element {
  const id = decodeURIComponent(route.path.slice('/customers/'.length));
  const caps = useCapabilities();
  const [loaded, reload] = useLoad(() => loadCustomer(id), [id]);
  const [orders] = useLoad(() => get<Order[]>('/orders/', { CustomerIds: [id], Take: 50 }), [id]);
  const [editing, setEditing] = useState(false);
  const [done, setDone] = useState<string | undefined>(undefined);
  const opener = useRef<HTMLButtonElement>(null);
  // A closed form gives the focus back to the button that opened it.
  const close = (): void => {
    setEditing(false);
    opener.current?.focus();
  };
  const saved = (c: Customer): void => {
    close();
    setDone(`Customer ${c.CustomerId} was saved.`);
    reload();
  };
  return (
    <>
      <div class="page-head">
        <h1>Customer {id}</h1>
        {caps.admin && loaded.state === 'done' && (
          <div class="actions">
            <button
              ref={opener}
              type="button"
              class="btn btn-secondary"
              aria-expanded={editing ? 'true' : 'false'}
              onClick={() => {
                setDone(undefined);
                setEditing(!editing);
              }}
            >
              Edit customer
            </button>
          </div>
        )}
      </div>
      {done && <Done>{done}</Done>}
      {editing && loaded.state === 'done' && <CustomerForm customer={loaded.data} onSaved={saved} onClose={close} />}
      <Show loaded={loaded}>
        {(c) => (
          <div class="fact-groups">
            {CUSTOMER_GROUPS.map((g) => (
              <div key={g.heading} class="fact-group">
                <h2>{g.heading}</h2>
                <dl class="facts" aria-label={g.heading}>
                  {g.fields.map((f) => [<dt key={`t-${f.name}`}>{f.label}</dt>, <dd key={`d-${f.name}`}>{c[f.name] || '—'}</dd>])}
                </dl>
              </div>
            ))}
          </div>
        )}
      </Show>
      <h2>Custom fields</h2>
      <CustomFields id={id} />
      <h2>Orders</h2>
      <Show loaded={orders}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No orders confirmed for this customer.</p>
          ) : (
            <OrderTable orders={list} caption={`Orders of ${id}`} />
          )
        }
      </Show>
      {caps.admin && (
        <>
          <h2>Privacy</h2>
          <Privacy id={id} onErased={reload} />
        </>
      )}
    </>
  );
}
