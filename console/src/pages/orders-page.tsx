import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call, post } from '../api/client.js';
import type { Order } from '../api/types.js';
import { useCapabilities } from '../capabilities-context.js';
import type { PageProps } from '../pages.js';
import { navigate } from '../router.js';
import { ErrorNote, Show } from '../ui/feedback.js';
import { Busy, Field, formValues } from '../ui/form.js';
import { OrderContentFields, contentFields, contentOf, draftOf } from '../ui/order-content.js';
import { OrderTable } from '../ui/order-table.js';
import { Pager } from '../ui/pager.js';
import { useLoad } from '../ui/use-load.js';

const PAGE = 50;
const FILTERS = ['Query', 'Status', 'Fulfilment', 'Payment', 'Since', 'Cursor'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/** The feed's status axes (design.md, "Order life after confirmation"), with the wire names of their filters. */
const AXES = [
  { param: 'Status', label: 'Status', field: 'Statuses', values: ['Open', 'Confirmed', 'Cancelled'] },
  {
    param: 'Fulfilment',
    label: 'Fulfilment',
    field: 'FulfillmentStatuses',
    values: ['Unfulfilled', 'PartiallyFulfilled', 'Fulfilled', 'PartiallyReturned', 'Returned'],
  },
  {
    param: 'Payment',
    label: 'Payment',
    field: 'PaymentStatuses',
    values: ['Unpaid', 'PartiallyPaid', 'Paid', 'PartiallyRefunded', 'Refunded'],
  },
] as const;

interface OrderPage {
  readonly orders: readonly Order[];
  readonly cursor: string | null;
}

/** One page of the order feed (SearchOrders), continued by the API's X-Sync-Cursor (keyset). */
async function searchOrders(query: URLSearchParams): Promise<OrderPage> {
  const since = query.get('Since');
  const answer = await call<Order[]>('GET', '/orders/', {
    query: {
      Query: query.get('Query') || undefined,
      Statuses: query.get('Status') ? [query.get('Status')!] : undefined,
      FulfillmentStatuses: query.get('Fulfilment') ? [query.get('Fulfilment')!] : undefined,
      PaymentStatuses: query.get('Payment') ? [query.get('Payment')!] : undefined,
      LastModifiedAfter: since ? new Date(since).toISOString() : undefined,
      Take: PAGE,
      Cursor: query.get('Cursor') || undefined,
    },
  });
  return { orders: answer.body, cursor: answer.headers.get('x-sync-cursor') };
}

const addressOf = (values: Filters): string => {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (values[name]) params.set(name, values[name]!);
  const s = params.toString();
  return `/orders${s ? `?${s}` : ''}`;
};

/** Create order (permission admin): an open order with an optional number, note and content; then its page. */
function CreateOrder({ onClose }: { onClose: () => void }): JSX.Element {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [v, setV] = useState({ OrderNumber: '', Note: '' });
  const [draft, setDraft] = useState(draftOf);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = await post<{ OrderId: number }>('/orders', {
        OrderNumber: v.OrderNumber.trim() || undefined,
        Note: v.Note.trim() || undefined,
        ...contentOf(draft),
      });
      navigate(`/orders/${created.OrderId}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const set = (name: keyof typeof v) => (e: Event) => setV({ ...v, [name]: (e.currentTarget as HTMLInputElement).value });
  return (
    <form class="card action-form" aria-label="Create order" onSubmit={(e) => void submit(e)} noValidate>
      <ErrorNote error={error} shownFields={['OrderNumber', 'Note', ...contentFields(draft)]} />
      <div class="grid">
        <Field label="Order number" field="OrderNumber" error={error} hint="Left empty, the service numbers it">
          {(p) => <input {...p} value={v.OrderNumber} onInput={set('OrderNumber')} />}
        </Field>
        <Field label="Note" field="Note" error={error}>
          {(p) => <textarea {...p} value={v.Note} onInput={set('Note')} />}
        </Field>
      </div>
      <OrderContentFields draft={draft} onChange={setDraft} error={error} />
      <Busy busy={busy} label="Create" />{' '}
      <button type="button" class="btn btn-secondary" onClick={onClose}>
        Close
      </button>
    </form>
  );
}

/** Orders: the feed with filters kept in the address, paged by keyset. */
export function OrdersPage({ route }: PageProps): JSX.Element {
  const caps = useCapabilities();
  const [creating, setCreating] = useState(false);
  const key = route.query.toString();
  const [loaded] = useLoad(() => searchOrders(route.query), [key]);
  const filters: Filters = {};
  for (const name of FILTERS) if (name !== 'Cursor') filters[name] = route.query.get(name) ?? '';
  const cursor = route.query.get('Cursor') ?? '';
  // A filter the service lacks is not offered (the fulfilment axis comes with shipments).
  const axes = AXES.filter((a) => a.param !== 'Fulfilment' || caps.fulfilmentFilter || filters.Fulfilment);
  const submit = (e: Event): void => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    navigate(addressOf({ Query: v.Query?.trim() ?? '', Status: v.Status, Fulfilment: v.Fulfilment, Payment: v.Payment, Since: v.Since }));
  };
  const error = loaded.state === 'failed' ? loaded.error : undefined;
  return (
    <>
      <div class="page-head">
        <h1>Orders</h1>
        <div class="actions">
          {caps.admin && (
            <button
              type="button"
              class="btn btn-primary"
              aria-expanded={creating ? 'true' : 'false'}
              onClick={() => setCreating(!creating)}
            >
              Create order
            </button>
          )}
        </div>
      </div>
      {creating && <CreateOrder onClose={() => setCreating(false)} />}
      <form class="filters" role="search" aria-label="Filter orders" onSubmit={submit} key={addressOf(filters)}>
        <Field label="Search" field="Query" error={error} hint="Order number, customer id, name or e-mail">
          {(p) => <input {...p} type="search" defaultValue={filters.Query} />}
        </Field>
        {axes.map((a) => (
          <Field key={a.param} label={a.label} field={a.field} error={error}>
            {(p) => (
              <select {...p} name={a.param}>
                {['', ...a.values].map((s) => (
                  <option key={s} value={s} selected={s === filters[a.param]}>
                    {s || 'Any'}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
        <Field label="Modified since" field="LastModifiedAfter" error={error}>
          {(p) => <input {...p} name="Since" type="datetime-local" defaultValue={filters.Since} />}
        </Field>
        <button type="submit" class="btn btn-primary">
          Apply filters
        </button>
      </form>
      <Show loaded={loaded}>
        {({ orders, cursor: next }) => (
          <>
            <OrderTable orders={orders} caption="Orders, oldest change first" />
            <Pager
              shown={orders.length}
              atStart={!cursor}
              hasNext={Boolean(next)}
              onFirst={() => navigate(addressOf(filters))}
              onNext={() => navigate(addressOf({ ...filters, Cursor: next ?? '' }))}
            />
          </>
        )}
      </Show>
    </>
  );
}
