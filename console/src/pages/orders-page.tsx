import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call, post } from '../api/client.js';
import type { Order } from '../api/types.js';
import { useCapabilities } from '../capabilities-context.js';
import type { PageProps } from '../pages.js';
import { navigate } from '../router.js';
import { ErrorNote, Show } from '../ui/feedback.js';
import { Busy, Field, formValues } from '../ui/form.js';
import { OrderTable } from '../ui/order-table.js';
import { Pager } from '../ui/pager.js';
import { useLoad } from '../ui/use-load.js';

const PAGE = 50;
const FILTERS = ['Query', 'Status', 'Since', 'Cursor'] as const;

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
      LastModifiedAfter: since ? new Date(since).toISOString() : undefined,
      Take: PAGE,
      Cursor: query.get('Cursor') || undefined,
    },
  });
  return { orders: answer.body, cursor: answer.headers.get('x-sync-cursor') };
}

const addressOf = (values: Partial<Record<(typeof FILTERS)[number], string>>): string => {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (values[name]) params.set(name, values[name]!);
  const s = params.toString();
  return `/orders${s ? `?${s}` : ''}`;
};

/** Create order (permission admin): an open order with an optional number and note; then its page. */
function CreateOrder(): JSX.Element {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  if (!open) {
    return (
      <button type="button" class="btn btn-primary" onClick={() => setOpen(true)}>
        Create order
      </button>
    );
  }
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      const created = await post<{ OrderId: number }>('/orders', {
        OrderNumber: v.OrderNumber?.trim() || undefined,
        Note: v.Note?.trim() || undefined,
      });
      navigate(`/orders/${created.OrderId}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <form class="card" aria-label="Create order" onSubmit={(e) => void submit(e)} noValidate>
      <ErrorNote error={error} shownFields={['OrderNumber', 'Note']} />
      <div class="grid">
        <Field label="Order number" field="OrderNumber" error={error} hint="Left empty, the service numbers it">
          {(p) => <input {...p} />}
        </Field>
        <Field label="Note" field="Note" error={error}>
          {(p) => <textarea {...p} />}
        </Field>
      </div>
      <Busy busy={busy} label="Create" />{' '}
      <button type="button" class="btn btn-secondary" onClick={() => setOpen(false)}>
        Close
      </button>
    </form>
  );
}

/** Orders: the feed with filters kept in the address, paged by keyset. */
export function OrdersPage({ route }: PageProps): JSX.Element {
  const caps = useCapabilities();
  const key = route.query.toString();
  const [loaded] = useLoad(() => searchOrders(route.query), [key]);
  const text = route.query.get('Query') ?? '';
  const status = route.query.get('Status') ?? '';
  const since = route.query.get('Since') ?? '';
  const cursor = route.query.get('Cursor') ?? '';
  const submit = (e: Event): void => {
    e.preventDefault();
    const v = formValues(e.currentTarget as HTMLFormElement);
    navigate(addressOf({ Query: v.Query?.trim() ?? '', Status: v.Status ?? '', Since: v.Since ?? '' }));
  };
  const error = loaded.state === 'failed' ? loaded.error : undefined;
  return (
    <>
      <div class="page-head">
        <h1>Orders</h1>
        <div class="actions">{caps.admin && <CreateOrder />}</div>
      </div>
      <form class="filters" role="search" aria-label="Filter orders" onSubmit={submit} key={`${text}|${status}|${since}`}>
        <Field label="Search" field="Query" error={error} hint="Order number, customer id, name or e-mail">
          {(p) => <input {...p} type="search" defaultValue={text} />}
        </Field>
        <Field label="Status" field="Statuses" error={error}>
          {(p) => (
            <select {...p} name="Status">
              {['', 'Open', 'Confirmed', 'Cancelled'].map((s) => (
                <option key={s} value={s} selected={s === status}>
                  {s || 'Any'}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Modified since" field="LastModifiedAfter" error={error}>
          {(p) => <input {...p} name="Since" type="datetime-local" defaultValue={since} />}
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
              onFirst={() => navigate(addressOf({ Query: text, Status: status, Since: since }))}
              onNext={() => navigate(addressOf({ Query: text, Status: status, Since: since, Cursor: next ?? '' }))}
            />
          </>
        )}
      </Show>
    </>
  );
}
