import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { call } from '../api/client.js';
import type { Customer } from '../api/types.js';
import { useCapabilities } from '../capabilities-context.js';
import type { PageProps } from '../pages.js';
import { Link, navigate } from '../router.js';
import { Show } from '../ui/feedback.js';
import { Field, formValues } from '../ui/form.js';
import { Pager } from '../ui/pager.js';
import { useLoad } from '../ui/use-load.js';
import { CustomerForm } from './customer-form.js';

const PAGE = 50;

interface CustomerPage {
  readonly customers: readonly Customer[];
  readonly cursor: string | null;
}

const splitIds = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** One page of SearchCustomers; the next continues from the X-Sync-Cursor the API hands out (keyset). */
async function searchCustomers(query: string, ids: string, cursor: string): Promise<CustomerPage> {
  const answer = await call<Customer[]>('GET', '/customer/', {
    query: { Query: query || undefined, Identifiers: splitIds(ids), Take: PAGE, Cursor: cursor || undefined },
  });
  return { customers: answer.body, cursor: answer.headers.get('x-sync-cursor') };
}

/** Customers: text search (`Query`) and ids, with their state in the address; (admin) New customer. */
export function CustomersPage({ route }: PageProps): JSX.Element {
  const query = route.query.get('Query') ?? '';
  const ids = route.query.get('Ids') ?? '';
  const cursor = route.query.get('Cursor') ?? '';
  const [loaded] = useLoad(() => searchCustomers(query, ids, cursor), [query, ids, cursor]);
  const caps = useCapabilities();
  const [creating, setCreating] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const close = (): void => {
    setCreating(false);
    opener.current?.focus();
  };
  const go = (q: string, i: string, c: string, replace = false): void => {
    const params = new URLSearchParams();
    if (q) params.set('Query', q);
    if (i) params.set('Ids', i);
    if (c) params.set('Cursor', c);
    const s = params.toString();
    navigate(`/customers${s ? `?${s}` : ''}`, replace);
  };
  const submit = (e: Event): void => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    go((v.Query ?? '').trim(), (v.Ids ?? '').trim(), '');
  };
  const error = loaded.state === 'failed' ? loaded.error : undefined;
  return (
    <>
      <div class="page-head">
        <h1>Customers</h1>
        <div class="actions">
          {caps.admin && (
            <button
              ref={opener}
              type="button"
              class="btn btn-primary"
              aria-expanded={creating ? 'true' : 'false'}
              onClick={() => setCreating(!creating)}
            >
              New customer
            </button>
          )}
        </div>
      </div>
      {creating && <CustomerForm onSaved={(c) => navigate(`/customers/${encodeURIComponent(c.CustomerId)}`)} onClose={close} />}
      <form class="filters" role="search" aria-label="Find customers" onSubmit={submit} key={`${query}|${ids}`}>
        <Field label="Search" field="Query" error={error} hint="Name, postal code, city, id…">
          {(p) => <input {...p} type="search" defaultValue={query} />}
        </Field>
        <Field label="Customer ids" field="Identifiers" error={error} hint="Ids or external ids, comma-separated">
          {(p) => <input {...p} name="Ids" defaultValue={ids} />}
        </Field>
        <button type="submit" class="btn btn-primary">
          Search
        </button>
      </form>
      <Show loaded={loaded}>
        {({ customers, cursor: next }) => (
          <>
            <table>
              <caption>Customers found</caption>
              <thead>
                <tr>
                  <th scope="col">Customer id</th>
                  <th scope="col">Name</th>
                  <th scope="col">Company</th>
                  <th scope="col">Postal code</th>
                  <th scope="col">City</th>
                  <th scope="col">Country</th>
                </tr>
              </thead>
              <tbody>
                {customers.map((c) => (
                  <tr key={c.CustomerId}>
                    <td>
                      <Link to={`/customers/${encodeURIComponent(c.CustomerId)}`}>{c.CustomerId}</Link>
                    </td>
                    <td>{[c.FirstName, c.LastName].filter(Boolean).join(' ')}</td>
                    <td>{c.Company}</td>
                    <td>{c.PostalCode}</td>
                    <td>{c.City}</td>
                    <td>{c.Country}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              shown={customers.length}
              atStart={!cursor}
              hasNext={Boolean(next) && customers.length === PAGE}
              onFirst={() => go(query, ids, '')}
              onNext={() => go(query, ids, next ?? '')}
            />
          </>
        )}
      </Show>
    </>
  );
}
