import type { JSX } from 'preact';
import type { Order } from '../api/types.js';
import { money, when } from '../format.js';
import { Link } from '../router.js';

const GOOD = new Set(['Confirmed', 'Paid', 'Fulfilled']);
const BAD = new Set(['Cancelled', 'Refunded', 'Returned']);

/** The colour of a status, whichever axis it is on (order, fulfilment, payment); partial ones are a warning. */
const statusBadge = (status: string): string =>
  GOOD.has(status)
    ? 'badge badge-good'
    : BAD.has(status)
      ? 'badge badge-bad'
      : status.startsWith('Partially')
        ? 'badge badge-warn'
        : 'badge';

/** A status as a badge. */
export const StatusBadge = ({ status }: { status: string | undefined }): JSX.Element | null =>
  status ? <span class={statusBadge(status)}>{status}</span> : null;

/** The name the order's confirmation gives its customer: first and last name, else the company. */
function customerName(o: Order): string {
  const c = o.Confirmation ?? {};
  const part = (name: string): string => (typeof c[name] === 'string' ? (c[name] as string).trim() : '');
  return [part('CustomerFirstName'), part('CustomerLastName')].filter(Boolean).join(' ') || part('CustomerCompany');
}

/** The customer by name (a link to the customer's page) with the id beside it; the id alone where no name is known. */
export function OrderCustomer({ order }: { order: Order }): JSX.Element {
  const name = customerName(order);
  if (!order.CustomerId) return <>{name || '—'}</>;
  const to = `/customers/${encodeURIComponent(order.CustomerId)}`;
  return name ? (
    <>
      <Link to={to}>{name}</Link> <span class="muted">{order.CustomerId}</span>
    </>
  ) : (
    <Link to={to}>{order.CustomerId}</Link>
  );
}

/** Orders as rows: number (a link to the order), status, customer, total, dates. */
export function OrderTable({ orders, caption }: { orders: readonly Order[]; caption: string }): JSX.Element {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Order number</th>
          <th scope="col">Status</th>
          <th scope="col">Fulfilment</th>
          <th scope="col">Payment</th>
          <th scope="col">Customer</th>
          <th scope="col" class="num">
            Total
          </th>
          <th scope="col">Created</th>
          <th scope="col">Last modified</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((o) => (
          <tr key={o.OrderId}>
            <td>
              <Link to={`/orders/${o.OrderId}`}>{o.OrderNumber}</Link>
            </td>
            <td>
              <StatusBadge status={o.Status} />
            </td>
            <td>{o.FulfillmentStatus ?? '—'}</td>
            <td>{o.PaymentStatus ?? '—'}</td>
            <td>
              <OrderCustomer order={o} />
            </td>
            <td class="num">{o.Totals ? money(o.Totals.Gross, o.Currency) : '—'}</td>
            <td>{when(o.CreatedAt)}</td>
            <td>{when(o.LastModified)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
